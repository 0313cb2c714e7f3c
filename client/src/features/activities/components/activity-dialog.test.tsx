// @vitest-environment happy-dom
import { ACTIVITY_MESSAGES } from '@shared/contracts/activities';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CUSTOMER_ID, makeActivity, testQueryClient } from '../lib/test-data';
import { ActivityDialog } from './activity-dialog';

const calls: { url: string; method: string; body: unknown }[] = [];

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ url, method: init.method ?? 'GET', body });
      // The customer's open deals (none); a save answers the activity.
      const answer = url.startsWith('/api/deals') ? [] : makeActivity({ ...body, id: 'saved' });
      return new Response(JSON.stringify(answer), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
});
afterEach(() => {
  cleanup();
  calls.length = 0;
  vi.unstubAllGlobals();
});

function renderDialog(activity = null as ReturnType<typeof makeActivity> | null) {
  const onOpenChange = vi.fn();
  render(
    <QueryClientProvider client={testQueryClient()}>
      <ActivityDialog
        open
        onOpenChange={onOpenChange}
        activity={activity}
        defaults={{ customerId: CUSTOMER_ID, customerName: 'Bella Notte Trattoria' }}
        canChooseOwner={false}
      />
    </QueryClientProvider>,
  );
  return { dialog: within(screen.getByRole('dialog')), onOpenChange };
}

const fill = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });
const errorOf = (input: HTMLElement) => document.getElementById(`${input.id}-error`)?.textContent;
const posts = () => calls.filter((call) => call.method !== 'GET');

describe('ActivityDialog', () => {
  it('shows the shared schema’s messages under their fields and sends nothing', async () => {
    const { dialog } = renderDialog();
    expect(dialog.getByText('Bella Notte Trattoria')).toBeTruthy();
    fill(dialog.getByLabelText('Due date'), '');
    fill(dialog.getByLabelText('Due time'), '');
    fireEvent.click(dialog.getByRole('button', { name: 'Log activity' }));
    await waitFor(() => expect(errorOf(dialog.getByLabelText('Subject'))).toBe(ACTIVITY_MESSAGES.subjectRequired));
    expect(errorOf(dialog.getByLabelText('Due date'))).toBe(ACTIVITY_MESSAGES.taskNeedsDue);

    fill(dialog.getByLabelText('Due time'), '09:30');
    fireEvent.click(dialog.getByRole('button', { name: 'Log activity' }));
    await waitFor(() => expect(errorOf(dialog.getByLabelText('Due date'))).toBe(ACTIVITY_MESSAGES.dueDateMissing));
    expect(dialog.queryByLabelText('Duration (minutes)')).toBeNull();
    expect(dialog.queryByLabelText('Outcome')).toBeNull();
    expect(posts()).toEqual([]);
  });

  it('logs a task for the customer, its due date and time read in the browser’s zone', async () => {
    const { dialog, onOpenChange } = renderDialog();
    fill(dialog.getByLabelText('Subject'), 'Call Bella Notte about Q1');
    fill(dialog.getByLabelText('Due date'), '2026-12-04');
    fill(dialog.getByLabelText('Due time'), '09:30');
    fill(dialog.getByLabelText('Details'), 'Ask about the spring menu');
    fireEvent.click(dialog.getByRole('button', { name: 'Log activity' }));

    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]).toEqual({
      url: '/api/activities',
      method: 'POST',
      body: {
        type: 'task',
        subject: 'Call Bella Notte about Q1',
        body: 'Ask about the spring menu',
        dueAt: new Date(2026, 11, 4, 9, 30).toISOString(),
        durationMinutes: null,
        outcome: null,
        done: false,
        customerId: CUSTOMER_ID,
        dealId: null,
        contactId: null,
        ownerId: null,
      },
    });
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
  });

  it('edits a call with its duration and outcome, with the duration’s own message', async () => {
    const call = makeActivity({
      type: 'call',
      subject: 'Pitch',
      dueAt: new Date(2026, 11, 4, 15, 0).toISOString(),
      durationMinutes: 15,
      outcome: 'connected',
    });
    const { dialog } = renderDialog(call);
    expect((dialog.getByLabelText('Due time') as HTMLInputElement).value).toBe('15:00');
    expect(dialog.getByRole('combobox', { name: 'Outcome' }).textContent).toContain('Connected');
    fill(dialog.getByLabelText('Duration (minutes)'), '2000');
    fireEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() =>
      expect(errorOf(dialog.getByLabelText('Duration (minutes)'))).toBe(ACTIVITY_MESSAGES.durationRange),
    );
    fill(dialog.getByLabelText('Duration (minutes)'), '20');
    fireEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]).toMatchObject({
      url: `/api/activities/${call.id}`,
      method: 'PATCH',
      body: { type: 'call', subject: 'Pitch', durationMinutes: 20, outcome: 'connected', ownerId: call.ownerId },
    });
  });
});
