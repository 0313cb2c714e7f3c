import { zodResolver } from '@hookform/resolvers/zod';
import {
  type ContractSettings,
  contractSettingsFields,
  contractSettingsSchema,
  DEFAULT_CONTRACT_SETTINGS,
} from '@shared/contracts/settings';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { contractSettingsQueryKey } from '../api/get-contract-settings';
import { AUTOPAY_CHARGE_ON_OPTIONS, ContractSettingsPanel } from './contract-settings-form';

function render(settings: ContractSettings) {
  const client = new QueryClient();
  client.setQueryData(contractSettingsQueryKey, settings);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <ContractSettingsPanel />
    </QueryClientProvider>,
  );
}

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('Contract settings: Autopay charges on', () => {
  it('offers the due date and the issue date, the values of the shared schema', () => {
    expect(AUTOPAY_CHARGE_ON_OPTIONS).toEqual([
      { value: 'due_date', label: 'The due date' },
      { value: 'issue_date', label: 'The issue date' },
    ]);
    expect(AUTOPAY_CHARGE_ON_OPTIONS.map((option) => option.value)).toEqual(
      contractSettingsFields.shape.autopayChargeOn.options,
    );
  });

  it('shows the saved day in a labelled select with its hint, in an Autopay group before Inventory', () => {
    const html = render({ ...DEFAULT_CONTRACT_SETTINGS, autopayChargeOn: 'issue_date' });
    const match = html.match(
      /<label for="([^"]+)"[^>]*>Autopay charges on<\/label><button type="button" role="combobox"[^>]*aria-describedby="([^"]+)" id="\1"[^>]*><span[^>]*>The issue date<\/span>/,
    );
    expect(match, html).not.toBeNull();
    const [, id, describedBy] = match as RegExpMatchArray;
    expect(describedBy).toBe(`${id}-hint`);
    expect(html).toContain(
      `<p id="${id}-hint" class="text-xs text-muted-foreground">Customers with a card on file are charged on this day.</p>`,
    );
    const shown = text(html);
    expect(shown).toMatch(
      / Dunning .* Autopay Autopay charges on The issue date Customers with a card .* Inventory Hold Days /,
    );
  });

  it('shows "The due date" by default', () => {
    const html = render(DEFAULT_CONTRACT_SETTINGS);
    expect(html).toMatch(
      />Autopay charges on<\/label><button[^>]*role="combobox"[^>]*><span[^>]*>The due date<\/span>/,
    );
    expect(html).not.toContain('The issue date');
  });

  it("validates the day with the form's own schema", async () => {
    const resolve = (values: object) =>
      zodResolver(contractSettingsSchema)(values as never, undefined, { fields: {}, shouldUseNativeValidation: false });
    const ok = await resolve({ ...DEFAULT_CONTRACT_SETTINGS, autopayChargeOn: 'issue_date' });
    expect(ok.values).toMatchObject({ autopayChargeOn: 'issue_date' });
    const wrong = await resolve({ ...DEFAULT_CONTRACT_SETTINGS, autopayChargeOn: 'tomorrow' });
    expect(wrong.errors.autopayChargeOn?.message).toBe('Autopay charges on the due date or the issue date');
  });
});
