import { Button } from './button';

/**
 * Previous / "Page N of M" / Next for a zero-based page; nothing when everything fits on one page.
 * `more`: M is only what has been counted so far ("of M+"), so Next stays available on the last counted page.
 */
export function Pagination({
  page,
  pages,
  more = false,
  onPageChange,
  className = 'mt-6',
}: {
  page: number;
  pages: number;
  more?: boolean;
  onPageChange: (page: number) => void;
  className?: string;
}) {
  if (pages <= 1 && !more) return null;
  return (
    <nav
      aria-label="Pagination"
      className={`${className} flex items-center justify-end gap-2 text-sm text-muted-foreground`}
    >
      <Button variant="outline" size="sm" disabled={page === 0} onClick={() => onPageChange(page - 1)}>
        Previous
      </Button>
      <span>
        Page {page + 1} of {pages}
        {more ? '+' : ''}
      </span>
      <Button variant="outline" size="sm" disabled={page + 1 >= pages && !more} onClick={() => onPageChange(page + 1)}>
        Next
      </Button>
    </nav>
  );
}
