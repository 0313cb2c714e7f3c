import { DEAL_SORTS } from '@shared/contracts/deal-vocabulary';
import { useSearchParams } from 'wouter';
import { filtersFromParams, type PipelineFilters } from '../lib/filters';

export type PipelineView = 'board' | 'list';

/** The address's changes: a value, or null to leave the parameter out. */
export type ParamChanges = Partial<
  Record<'ownerId' | 'month' | 'source' | 'q' | 'view' | 'sort' | 'page', string | null>
>;

const validSort = (sort: string | null) =>
  sort && (DEAL_SORTS as readonly string[]).includes(sort.replace(/^-/, '')) ? sort : null;

/**
 * The screen's state in the address, so a reload or a shared link keeps it: the filters (?ownerId=&month=&source=&q=),
 * the view (?view=list), the list's sort (?sort=-amount) and page (?page=2, counted from 1). A change of filter or
 * sort starts the list again from its first page.
 */
export function usePipelineParams() {
  const [params, setParams] = useSearchParams();
  const filters: PipelineFilters = filtersFromParams(params);
  const view: PipelineView = params.get('view') === 'list' ? 'list' : 'board';
  const sort = validSort(params.get('sort'));
  const pageNumber = Number(params.get('page'));
  const page = Number.isInteger(pageNumber) && pageNumber > 1 ? pageNumber - 1 : 0;
  const update = (changes: ParamChanges) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (!('page' in changes) && Object.keys(changes).some((key) => key !== 'view')) next.delete('page');
        for (const [key, value] of Object.entries(changes)) {
          if (value === null || value === undefined || value === '') next.delete(key);
          else next.set(key, value);
        }
        return next;
      },
      { replace: true },
    );
  return { filters, view, sort, page, update };
}
