import { countLabel, formatDate } from '@/lib/format';

/** "1 deal", "12 deals". */
export const dealCount = (count: number) => countLabel(count, false, 'deal', 'deals');

/** "Closes Dec 15, 2026", or that no close date is set. */
export const closeText = (day: string | null) => (day ? `Closes ${formatDate(day)}` : 'No close date');

/** "25%". */
export const percent = (value: number) => `${value}%`;
