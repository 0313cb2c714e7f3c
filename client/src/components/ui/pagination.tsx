import { Button } from './button';

/** Previous / "Page N of M" / Next for a zero-based page; nothing when everything fits on one page. */
export function Pagination({
  page,
  pages,
  onPageChange,
  className = 'mt-6',
}: {
  page: number;
  pages: number;
  onPageChange: (page: number) => void;
  className?: string;
}) {
  if (pages <= 1) return null;
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
      </span>
      <Button variant="outline" size="sm" disabled={page + 1 >= pages} onClick={() => onPageChange(page + 1)}>
        Next
      </Button>
    </nav>
  );
}
