import type { ReactNode } from 'react';

type Advertiser = { id: string; name: string | null };

/**
 * An agency's rows grouped by advertiser (product.md section 20): a heading per advertiser, in the order the rows
 * come, each group drawn by `children`. A client whose rows are all its own customer's (an advertiser) sees them
 * as before, in one list without a heading.
 */
export function AdvertiserGroups<T>({
  rows,
  customerId,
  advertiser,
  children,
}: {
  rows: T[];
  /** The signed-in client's customer (none: one list). */
  customerId?: string | null;
  advertiser: (row: T) => Advertiser;
  children: (rows: T[], name?: string) => ReactNode;
}) {
  if (!customerId || rows.every((row) => advertiser(row).id === customerId)) return children(rows);
  const groups = new Map<string, { name: string; rows: T[] }>();
  for (const row of rows) {
    const { id, name } = advertiser(row);
    const group = groups.get(id) ?? { name: name ?? '', rows: [] };
    group.rows.push(row);
    groups.set(id, group);
  }
  return (
    <div className="grid gap-6">
      {[...groups].map(([id, group]) => (
        <section key={id} aria-label={group.name} data-testid="advertiser-group">
          <h3 className="mb-2 text-sm font-semibold">{group.name}</h3>
          {children(group.rows, group.name)}
        </section>
      ))}
    </div>
  );
}
