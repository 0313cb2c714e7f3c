export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export const min = (values: number[]) => Math.min(...values);
export const max = (values: number[]) => Math.max(...values);

/** "1,139 (1,050-1,201)": the median with the range of the rounds. */
export function spread(values: number[], digits = 0): string {
  const f = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  if (values.length === 1) return f(values[0]);
  return `${f(median(values))} (${f(min(values))}-${f(max(values))})`;
}
