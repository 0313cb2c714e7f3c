import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { Fragment, type ReactNode, type RefObject, useEffect, useRef, useState } from 'react';
import { useWideScreen } from '@/lib/use-media-query';
import { cn } from '@/lib/utils';
import { Fact } from './fact';
import { Skeleton } from './feedback';

export type SortDirection = 'ascending' | 'descending';
export type SortState = { column: string; direction: SortDirection };
/**
 * What a column is to its row, for the layouts that cannot show every column at once:
 * - `identity` names the record: a card's title on a phone. Unless a column says so, the `rowHeader` column,
 *   else the first. (The first column stays in view at the left when the table scrolls sideways.)
 * - `amount`: on a card, large at the top right, beside the title.
 * - `status`: on a card, under the title.
 * - `actions`: stays in view at the right when the table scrolls sideways, and is a card's foot on a phone.
 * Unless a column says so, an unmarked column whose id is the role's name (`amount`, `status`, `actions`).
 */
export type ColumnRole = 'identity' | 'amount' | 'status' | 'actions';
type SortValue = string | number | null | undefined;
type RowAttributes = { [attribute: `data-${string}`]: string | number | boolean | undefined };

export type Column<T> = {
  /** Unique within the table: the key of its cells and what a sort names. */
  id: string;
  /** The header (`<th scope="col">`), and the label beside the value when a row is a card on a phone. */
  header: string;
  /** The header is read by screen readers only (an actions or notes column); on a card the value has no label. */
  hideHeader?: boolean;
  cell: (row: T) => ReactNode;
  /** Figures and money: right-aligned, in tabular digits. */
  align?: 'left' | 'right';
  /** The cell names its row: `<th scope="row">`; on a card, the card's title. */
  rowHeader?: boolean;
  /** Classes of the header and the cells (a column left out below a breakpoint, say). */
  className?: string;
  /** Classes of the cells only. */
  cellClassName?: string | ((row: T) => string | false | undefined);
  /** The column sorts the rows at hand by this value (header button, aria-sort). */
  sortValue?: (row: T) => SortValue;
  /** What a cell shows while the rows load: a bar unless given (nothing under a header for screen readers only). */
  placeholder?: ReactNode;
  /** Left off a row's card on a phone. */
  hideOnCard?: boolean;
  /** What the column is to its row (see ColumnRole): where it goes on a card, whether it stays in view. */
  role?: ColumnRole;
};

export type DataTableProps<T> = {
  /** The table's name: its caption for screen readers, and the card list's label on a phone. */
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  /** Attributes of a row's `<tr>` (or its card's `<li>`): test ids and data attributes. */
  rowProps?: (row: T) => RowAttributes;
  rowClassName?: (row: T) => string | false | undefined;
  /** A row's unfolded detail, under it across the table (or at the foot of its card). */
  expanded?: (row: T) => ReactNode;
  /** The first load: placeholder rows, announced as loading. */
  loading?: boolean;
  loadingRows?: number;
  /** A later load (another page or filter) while the rows on screen stay: they are dimmed. */
  busy?: boolean;
  /** Shown, and announced, in place of the table when there are no rows. */
  empty?: ReactNode;
  /** A closing row: its label across the first columns, its value under the last. */
  total?: { label: ReactNode; value: ReactNode };
  /** Under the rows, inside the frame (a count and the pages). */
  footer?: ReactNode;
  /**
   * Below 640 px: each row becomes a card (the default, a list of records: its identity, amount, status and
   * actions on top and at the foot, the other columns as labels beside values), or the table scrolls sideways
   * inside its frame (a grid of figures best read across).
   */
  phone?: 'scroll' | 'cards';
  /** A row's card of its own on a phone, instead of label and value pairs. */
  card?: (row: T) => ReactNode;
  /** 'default' for a screen's list, 'snug' for one with many columns, 'compact' inside a card or a dialog. */
  density?: keyof typeof PADDING;
  /** 'card' for a screen's list, 'inset' inside a card or a dialog, 'none' for no frame. */
  frame?: 'card' | 'inset' | 'none';
  /** Classes of the `<table>` (a minimum width for a wide one, a smaller text). */
  className?: string;
  /** Classes of the frame (of the card list too, on a phone). */
  frameClassName?: string;
  /**
   * Header buttons sort by the columns that have a `sortValue`: only when the rows are the whole list (a page of
   * a list paged on the server is not sorted here, that would mislead).
   */
  sortable?: boolean;
  /**
   * The rows are sorted by the server: the header buttons of `columns` (ids) show `sort` and ask for another
   * order through `onSort` (asc, desc, then the list's own order again); the rows are shown as they came.
   */
  serverSort?: { columns: readonly string[]; sort: SortState | null; onSort: (sort: SortState | null) => void };
};

export const TABLE_HEAD_CLASS = 'bg-muted/60 text-left text-xs uppercase tracking-wide text-muted-foreground';
const PADDING = { default: 'px-4 py-3', snug: 'px-3 py-3', compact: 'px-3 py-2' } as const;
const FRAMES = { card: 'rounded-xl border bg-white shadow-sm', inset: 'rounded-lg border bg-white', none: '' } as const;
const CARD_CLASS = 'grid gap-2 rounded-xl border bg-white p-4 text-sm shadow-sm';
/** The sticky cells' own background (a sticky cell must hide what scrolls under it), following the row's hover. */
const STICKY_CELL = 'sticky z-[1] bg-white group-hover/row:bg-slate-50';
const SHADOW_LEFT_EDGE = 'shadow-[6px_0_8px_-6px_#0004]';
const SHADOW_RIGHT_EDGE = 'shadow-[-6px_0_8px_-6px_#0004]';

/** The column of a role: the one marked with it, else an unmarked one of its id (see ColumnRole). */
export function columnOf<T>(columns: Column<T>[], role: ColumnRole): Column<T> | undefined {
  return (
    columns.find((column) => column.role === role) ??
    columns.find((column) => !column.role && (role === 'identity' ? column.rowHeader : column.id === role)) ??
    (role === 'identity' && !columns[0]?.role ? columns[0] : undefined)
  );
}

/**
 * The product's data table: column definitions, a caption, placeholder rows while loading, an announced empty
 * state, optional sorting of the rows at hand, and a phone layout (rows become cards, or the table scrolls in
 * its frame). When the table is wider than its frame, it scrolls sideways with its identity and actions columns
 * kept in view and a shadow on the side where more columns are.
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const { columns, loading = false, empty, phone = 'cards', sortable = true, serverSort } = props;
  const wide = useWideScreen();
  const [localSort, setSort] = useState<SortState | null>(null);
  const sort = serverSort ? serverSort.sort : localSort;
  const rows = sortable && !serverSort ? sortRows(props.rows, columns, sort) : props.rows;
  const none = !loading && rows.length === 0;
  const cards = phone === 'cards' && !wide;

  return (
    <>
      {/* One live region for the table's states: screen readers hear the load end in an empty list. */}
      <div role="status" aria-label={loading ? 'Loading' : undefined}>
        {loading && <span className="sr-only">Loading</span>}
        {none && empty}
      </div>
      {!none &&
        (cards ? (
          <DataCards {...props} rows={rows} />
        ) : (
          <DataGrid
            {...props}
            rows={rows}
            sort={sort}
            onSort={serverSort ? serverSort.onSort : sortable ? setSort : null}
            sorts={(column) => (serverSort ? serverSort.columns.includes(column.id) : Boolean(column.sortValue))}
          />
        ))}
      {!none && props.footer && cards && <div className="mt-3">{props.footer}</div>}
    </>
  );
}

function DataGrid<T>({
  caption,
  columns,
  rows,
  rowKey,
  rowProps,
  rowClassName,
  expanded,
  loading = false,
  loadingRows = 5,
  busy = false,
  total,
  footer,
  density = 'default',
  frame = 'inset',
  className,
  frameClassName,
  sort,
  onSort,
  sorts,
}: DataTableProps<T> & {
  sort: SortState | null;
  onSort: ((sort: SortState | null) => void) | null;
  /** Whether a column's header sorts. */
  sorts: (column: Column<T>) => boolean;
}) {
  const pad = PADDING[density];
  const scroller = useRef<HTMLDivElement>(null);
  const edges = useScrollEdges(scroller);
  // The first column stays at the left (it names the row, or comes right before the column that does).
  const identity = columns[0];
  const actions = columnOf(columns, 'actions');
  // Only a table wider than its frame pins its identity and actions: one that fits looks as it always did.
  const pinned = (column: Column<T>) =>
    !edges.overflow
      ? undefined
      : column === identity
        ? cn(STICKY_CELL, 'left-0', edges.start && SHADOW_LEFT_EDGE)
        : column === actions
          ? cn(STICKY_CELL, 'right-0', edges.end && SHADOW_RIGHT_EDGE)
          : undefined;
  const cellClass = (column: Column<T>, row: T) =>
    cn(
      pad,
      column.align === 'right' && 'text-right tabular-nums',
      column.rowHeader && 'text-left font-medium text-slate-900',
      column.className,
      typeof column.cellClassName === 'function' ? column.cellClassName(row) : column.cellClassName,
      pinned(column),
    );
  return (
    // min-w-0: as a grid or flex item, the frame narrows to its track and the table scrolls inside it.
    <div className={cn('min-w-0', FRAMES[frame], frameClassName)}>
      <div className="relative rounded-[inherit]">
        <div
          ref={scroller}
          className="overflow-x-auto rounded-[inherit]"
          // A table that scrolls sideways can be scrolled from the keyboard once focused.
          {...(edges.overflow
            ? { tabIndex: 0, role: 'region', 'aria-label': `${caption} (scrolls sideways)` }
            : undefined)}
        >
          <table className={cn('w-full text-sm', className)} aria-busy={loading || busy}>
            <caption className="sr-only">{caption}</caption>
            <thead className={TABLE_HEAD_CLASS}>
              <tr>
                {columns.map((column) => (
                  <HeaderCell
                    key={column.id}
                    column={column}
                    padding={pad}
                    pinned={pinned(column) && cn(pinned(column), 'bg-slate-50')}
                    sort={sort}
                    onSort={sorts(column) ? onSort : null}
                  />
                ))}
              </tr>
            </thead>
            <tbody className={busy ? 'opacity-70 transition-opacity' : undefined}>
              {loading
                ? Array.from({ length: loadingRows }, (_, i) => (
                    <tr key={i} className="border-t">
                      {columns.map((column) => (
                        <td key={column.id} className={cn(pad, column.className)}>
                          {column.placeholder !== undefined || column.hideHeader ? (
                            column.placeholder
                          ) : (
                            <Skeleton className={cn('h-4 w-20', column.align === 'right' && 'ml-auto')} />
                          )}
                        </td>
                      ))}
                    </tr>
                  ))
                : rows.map((row) => {
                    const detail = expanded?.(row);
                    return (
                      <Fragment key={rowKey(row)}>
                        <tr
                          className={cn('group/row border-t align-top hover:bg-muted/40', rowClassName?.(row))}
                          {...rowProps?.(row)}
                        >
                          {columns.map((column) => {
                            const Cell = column.rowHeader ? 'th' : 'td';
                            return (
                              <Cell
                                key={column.id}
                                scope={column.rowHeader ? 'row' : undefined}
                                className={cellClass(column, row)}
                              >
                                {column.cell(row)}
                              </Cell>
                            );
                          })}
                        </tr>
                        {detail && (
                          <tr className="border-t bg-slate-50">
                            <td colSpan={columns.length} className={pad}>
                              {detail}
                            </td>
                          </tr>
                        )}
                      </Fragment>
                    );
                  })}
            </tbody>
            {total && !loading && (
              <tfoot>
                <tr className="border-t bg-muted/30">
                  <th scope="row" colSpan={columns.length - 1} className={cn(pad, 'text-right font-medium')}>
                    {total.label}
                  </th>
                  <td className={cn(pad, 'text-right font-semibold tabular-nums')}>{total.value}</td>
                </tr>
              </tfoot>
            )}
          </table>
        </div>
        {/* Without an actions column to cast a shadow, a fade on the right says there is more. */}
        {edges.end && !actions && (
          <div
            aria-hidden
            className="pointer-events-none absolute inset-y-0 right-0 w-8 bg-linear-to-l from-slate-900/10"
          />
        )}
      </div>
      {footer && <div className="border-t px-4 py-3">{footer}</div>}
    </div>
  );
}

type ScrollEdges = { overflow: boolean; start: boolean; end: boolean };
const NO_OVERFLOW: ScrollEdges = { overflow: false, start: false, end: false };

/**
 * Whether the element scrolls sideways, and whether there is more to see on its left (start) and right (end);
 * updated as it scrolls, as it or its content resizes.
 */
function useScrollEdges(ref: RefObject<HTMLElement | null>): ScrollEdges {
  const [edges, setEdges] = useState(NO_OVERFLOW);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const update = () => {
      const max = element.scrollWidth - element.clientWidth;
      const next = { overflow: max > 1, start: element.scrollLeft > 1, end: element.scrollLeft < max - 1 };
      setEdges((previous) =>
        previous.overflow === next.overflow && previous.start === next.start && previous.end === next.end
          ? previous
          : next,
      );
    };
    update();
    element.addEventListener('scroll', update, { passive: true });
    const observer = new ResizeObserver(update);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => {
      element.removeEventListener('scroll', update);
      observer.disconnect();
    };
  }, [ref]);
  return edges;
}

function HeaderCell<T>({
  column,
  padding,
  pinned,
  sort,
  onSort,
}: {
  column: Column<T>;
  padding: string;
  /** The classes that keep the header in view over a table scrolled sideways. */
  pinned?: string | false;
  sort: SortState | null;
  /** Null when the table does not sort by this column. */
  onSort: ((sort: SortState | null) => void) | null;
}) {
  const className = cn(padding, 'font-medium', column.align === 'right' && 'text-right', column.className, pinned);
  if (column.hideHeader) {
    return (
      <th scope="col" className={className}>
        <span className="sr-only">{column.header}</span>
      </th>
    );
  }
  if (!onSort) {
    return (
      <th scope="col" className={className}>
        {column.header}
      </th>
    );
  }
  const direction = sort?.column === column.id ? sort.direction : null;
  const Icon = direction === 'ascending' ? ArrowUp : direction === 'descending' ? ArrowDown : ArrowUpDown;
  return (
    <th scope="col" className={className} aria-sort={direction ?? 'none'}>
      <button
        type="button"
        className="-mx-1 inline-flex cursor-pointer items-center gap-1 rounded px-1 uppercase tracking-wide hover:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        onClick={() => onSort(nextSort(sort, column.id))}
      >
        {column.header}
        <Icon className={cn('size-3.5', !direction && 'opacity-50')} aria-hidden />
      </button>
    </th>
  );
}

function DataCards<T>({
  caption,
  columns,
  rows,
  rowKey,
  rowProps,
  expanded,
  loading = false,
  loadingRows = 5,
  busy = false,
  total,
  card,
  frameClassName,
}: DataTableProps<T>) {
  const [title, amount, status, actions] = (['identity', 'amount', 'status', 'actions'] as const).map((role) => {
    const column = columnOf(columns, role);
    return column?.hideOnCard ? undefined : column;
  });
  const placed = [title, amount, status, actions];
  const shown = columns.filter((column) => !column.hideOnCard && !placed.includes(column));
  const labelled = shown.filter((column) => !column.hideHeader);
  const unlabelled = shown.filter((column) => column.hideHeader);
  return (
    <ul
      aria-label={caption}
      aria-busy={loading || busy}
      className={cn('grid gap-3', busy && 'opacity-70 transition-opacity', frameClassName)}
    >
      {loading
        ? Array.from({ length: loadingRows }, (_, i) => (
            <li key={i}>
              <Skeleton className="h-32 rounded-xl" />
            </li>
          ))
        : rows.map((row) => {
            if (card) {
              return (
                <li key={rowKey(row)} className={CARD_CLASS} {...rowProps?.(row)}>
                  {card(row)}
                </li>
              );
            }
            const detail = expanded?.(row);
            return (
              <li key={rowKey(row)} className={CARD_CLASS} {...rowProps?.(row)}>
                {(title || status || amount) && (
                  <div className="flex items-start justify-between gap-3">
                    <div className="grid min-w-0 grid-cols-[minmax(0,1fr)] justify-items-start gap-1.5">
                      {title && (
                        <div className="min-w-0 max-w-full break-words font-medium text-slate-900">
                          {title.cell(row)}
                        </div>
                      )}
                      {status && <div data-card-role="status">{status.cell(row)}</div>}
                    </div>
                    {amount && (
                      <div className="shrink-0 text-right" data-card-role="amount">
                        <div className="text-base font-semibold tabular-nums text-slate-900">{amount.cell(row)}</div>
                        <div className="text-xs text-muted-foreground">{amount.header}</div>
                      </div>
                    )}
                  </div>
                )}
                {labelled.length > 0 && (
                  <dl className="grid gap-1.5">
                    {labelled.map((column) => (
                      <Fact key={column.id} label={column.header}>
                        {column.cell(row)}
                      </Fact>
                    ))}
                  </dl>
                )}
                {unlabelled.map((column) => (
                  <div key={column.id} className="flex flex-wrap justify-end gap-2">
                    {column.cell(row)}
                  </div>
                ))}
                {actions && (
                  <div className="flex flex-wrap items-center justify-end gap-2 border-t pt-3" data-card-role="actions">
                    {actions.cell(row)}
                  </div>
                )}
                {detail && <div className="border-t pt-3">{detail}</div>}
              </li>
            );
          })}
      {total && !loading && (
        <li className="flex justify-between gap-4 px-4 text-sm font-semibold">
          <span>{total.label}</span>
          <span className="tabular-nums">{total.value}</span>
        </li>
      )}
    </ul>
  );
}

/** Asc, then desc, then the rows' own order again. */
export function nextSort(current: SortState | null, column: string): SortState | null {
  if (current?.column !== column) return { column, direction: 'ascending' };
  return current.direction === 'ascending' ? { column, direction: 'descending' } : null;
}

const collator = new Intl.Collator('en-US', { numeric: true, sensitivity: 'base' });

/** The rows ordered by a column's sort value (a stable sort; rows without a value last either way). */
export function sortRows<T>(rows: T[], columns: Column<T>[], sort: SortState | null): T[] {
  const value = sort && columns.find((column) => column.id === sort.column)?.sortValue;
  if (!sort || !value) return rows;
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index, key: value(row) }))
    .sort((a, b) => {
      const aMissing = a.key === null || a.key === undefined || a.key === '';
      const bMissing = b.key === null || b.key === undefined || b.key === '';
      if (aMissing || bMissing) return aMissing === bMissing ? a.index - b.index : aMissing ? 1 : -1;
      const order =
        typeof a.key === 'number' && typeof b.key === 'number'
          ? a.key - b.key
          : collator.compare(String(a.key), String(b.key));
      return order === 0 ? a.index - b.index : sign * order;
    })
    .map(({ row }) => row);
}
