/** "1 day late", "12 days late". */
export const daysLate = (days: number) => `${days} ${days === 1 ? 'day' : 'days'} late`;
