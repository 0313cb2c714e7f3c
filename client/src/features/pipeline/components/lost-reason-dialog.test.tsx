// @vitest-environment happy-dom
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pipelineSettingsQueryKey } from '../api/get-pipeline-settings';
import { LOST, makeDeal, SETTINGS, testQueryClient } from '../lib/test-data';
import { LostReasonDialog } from './lost-reason-dialog';

function renderDialog(onConfirm: (reason: string) => void) {
  const client = testQueryClient();
  client.setQueryData(pipelineSettingsQueryKey, SETTINGS);
  return render(
    <QueryClientProvider client={client}>
      <LostReasonDialog
        losing={{ deal: makeDeal(), stage: LOST }}
        busy={false}
        onClose={() => {}}
        onConfirm={onConfirm}
      />
    </QueryClientProvider>,
  );
}

afterEach(cleanup);

describe('LostReasonDialog', () => {
  it('asks why, with the settings’ lost reasons, and hands on the one chosen', async () => {
    const onConfirm = vi.fn();
    renderDialog(onConfirm);
    const dialog = await screen.findByRole('dialog', { name: 'Why was it lost?' });
    expect(dialog.textContent).toContain('Holiday banners moves to Lost. Choose the reason it was lost.');

    const select = screen.getByRole('combobox', { name: 'Lost reason' });
    fireEvent.keyDown(select, { key: 'Enter' });
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['Price', 'Budget', 'Timing']);
    fireEvent.keyDown(screen.getByRole('option', { name: 'Budget' }), { key: 'Enter' });
    await waitFor(() => expect(select.textContent).toContain('Budget'));

    fireEvent.click(screen.getByRole('button', { name: 'Mark as lost' }));
    await waitFor(() => expect(onConfirm).toHaveBeenCalledWith('Budget'));
  });

  it('says a reason is needed when none is chosen, and sends nothing', async () => {
    const onConfirm = vi.fn();
    renderDialog(onConfirm);
    fireEvent.click(await screen.findByRole('button', { name: 'Mark as lost' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Choose the reason the deal was lost');
    expect(screen.getByRole('combobox', { name: 'Lost reason' }).getAttribute('aria-invalid')).toBe('true');
    expect(onConfirm).not.toHaveBeenCalled();
  });
});
