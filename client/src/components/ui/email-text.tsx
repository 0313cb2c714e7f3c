import { Fragment } from 'react';
import { cn } from '@/lib/utils';

/**
 * An e-mail address that wraps where a reader expects on narrow screens: after the "@" and before each dot
 * of the domain, and only inside a part when that part alone is wider than the line.
 */
export function EmailText({ email, className }: { email: string; className?: string }) {
  const at = email.lastIndexOf('@');
  const local = at < 0 ? email : email.slice(0, at);
  const domain = at < 0 ? [] : email.slice(at + 1).split('.');
  return (
    <span className={cn('wrap-anywhere', className)}>
      {local}
      {at >= 0 && (
        <>
          @<wbr />
          {domain.map((part, i) => (
            <Fragment key={`${i}-${part}`}>
              {i > 0 && (
                <>
                  <wbr />.
                </>
              )}
              {part}
            </Fragment>
          ))}
        </>
      )}
    </span>
  );
}
