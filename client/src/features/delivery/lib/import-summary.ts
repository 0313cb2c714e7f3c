import type { DeliveryImportResult } from '@shared/contracts/delivery';

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** "12 rows: 10 recorded, 2 unchanged; 1 credit note, 1 makegood". */
export function importSummary(result: DeliveryImportResult): string {
  const settled =
    result.credits === 0 && result.makegoods === 0
      ? 'nothing to settle'
      : `${count(result.credits, 'credit note', 'credit notes')}, ${count(result.makegoods, 'makegood', 'makegoods')}`;
  return `${count(result.rows, 'row', 'rows')}: ${result.recorded.toLocaleString('en-US')} recorded, ${result.unchanged.toLocaleString('en-US')} unchanged; ${settled}`;
}

/**
 * A refused import's row errors, one line each ("Row 7: Unknown contract abc"), in row order; errors not tied
 * to a row (the file's columns, say) come first, as their message alone.
 */
export function importErrors(fieldErrors: Record<string, string[]> | undefined): string[] {
  if (!fieldErrors) return [];
  const rowNumber = (key: string) => {
    const match = /^row (\d+)$/i.exec(key);
    return match ? Number(match[1]) : 0;
  };
  return Object.entries(fieldErrors)
    .sort(([a], [b]) => rowNumber(a) - rowNumber(b))
    .flatMap(([key, messages]) =>
      messages.map((message) => (rowNumber(key) > 0 ? `Row ${rowNumber(key)}: ${message}` : message)),
    );
}
