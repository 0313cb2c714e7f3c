import { useSearchParams } from 'wouter';
import { DEFAULT_MONTHS, type ForecastParams, paramsFrom } from '../lib/params';

/**
 * The screen's choices in the address, so a reload or a shared link keeps them: ?months=6|12|24 (12 left out) and
 * ?ownerId= (one rep; managers and admins only, the server answers a rep's own row whatever it says).
 */
export function useForecastParams() {
  const [search, setSearch] = useSearchParams();
  const params: ForecastParams = paramsFrom(search);
  const update = (changes: { months?: number; ownerId?: string | null }) =>
    setSearch(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (changes.months !== undefined) {
          if (changes.months === DEFAULT_MONTHS) next.delete('months');
          else next.set('months', String(changes.months));
        }
        if (changes.ownerId !== undefined) {
          if (changes.ownerId) next.set('ownerId', changes.ownerId);
          else next.delete('ownerId');
        }
        return next;
      },
      { replace: true },
    );
  return { params, update };
}
