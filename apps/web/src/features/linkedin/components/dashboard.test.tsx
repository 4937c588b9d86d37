import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ok, renderApp } from '../../../test/render-app';
import { browser } from '../lib/linkedin-lib';
import {
  bodyOf,
  calls,
  IDS,
  makeAutomation,
  makeDraft,
  makeKeyword,
  makeProfileFollow,
  signedIn,
} from '../test-fixtures';

const slow = { timeout: 10_000 };

afterEach(() => vi.restoreAllMocks());

describe('/automation/dashboard-linkedin', { timeout: 30_000 }, () => {
  it('overview: the connection, the counts and the drafts waiting for review', async () => {
    signedIn({
      keywords: [makeKeyword()],
      profiles: [makeProfileFollow()],
      drafts: [makeDraft({ flags: ['linkRemoved'] })],
      automations: [makeAutomation()],
    });
    renderApp('/automation');
    expect(await screen.findByRole('tab', { name: 'Overview', selected: true }, slow)).toBeInTheDocument();
    expect(document.title).toBe('LinkedIn dashboard | Parley');
    expect(await screen.findByText('Congratulations on the launch: discovery first is the way.')).toBeInTheDocument();
    expect(screen.getByText('A link was removed')).toBeInTheDocument();
    expect(screen.getByText('Ada Lovelace')).toBeInTheDocument();
    const counts = screen.getByText('Drafts to review').closest('div')!;
    expect(counts).toHaveTextContent('1');
    for (const tab of ['History', 'Stats', 'Accounts', 'Manage profiles'])
      expect(screen.getByRole('tab', { name: tab })).toBeInTheDocument();
  });

  it('accepting a draft copies it, opens the post on LinkedIn and marks it accepted; nothing is posted', async () => {
    const user = userEvent.setup();
    const open = vi.spyOn(browser, 'open').mockImplementation(() => undefined);
    const fetchMock = signedIn(
      { drafts: [makeDraft()] },
      {
        [`PUT /api/linkedin/drafts/${IDS.draft}`]: (_url, init) =>
          ok(makeDraft({ ...(bodyOf(init) as object), status: 'accepted' })),
      },
    );
    renderApp('/automation/dashboard-linkedin');
    await user.click(await screen.findByRole('button', { name: 'Accept' }, slow));
    await waitFor(() => expect(open).toHaveBeenCalledWith(makeDraft().postUrl));
    expect(await navigator.clipboard.readText()).toBe('Congratulations on the launch: discovery first is the way.');
    expect(bodyOf(calls(fetchMock, `PUT /api/linkedin/drafts/${IDS.draft}`)[0]![1])).toEqual({ status: 'accepted' });
    await waitFor(() => expect(screen.queryByText(makeDraft().text)).toBeNull());
  });

  it('edits a draft before accepting, and dismisses another', async () => {
    const user = userEvent.setup();
    vi.spyOn(browser, 'open').mockImplementation(() => undefined);
    const second = makeDraft({ id: IDS.comment, text: 'Second draft', authorName: 'Alan Turing' });
    const fetchMock = signedIn(
      { drafts: [makeDraft(), second] },
      {
        [`PUT /api/linkedin/drafts/${IDS.draft}`]: (_url, init) => ok(makeDraft({ ...(bodyOf(init) as object) })),
        [`PUT /api/linkedin/drafts/${IDS.comment}`]: ok({ ...second, status: 'dismissed' }),
      },
    );
    renderApp('/automation/dashboard-linkedin');
    const first = (await screen.findByText('Grace Hopper', {}, slow)).closest('li')!;
    await user.click(within(first).getByRole('button', { name: 'Edit' }));
    const box = within(first).getByLabelText('Comment');
    await user.clear(box);
    await user.type(box, 'Well said, Grace.');
    await user.click(within(first).getByRole('button', { name: 'Save the draft' }));
    await waitFor(() => expect(calls(fetchMock, `PUT /api/linkedin/drafts/${IDS.draft}`)).toHaveLength(1));
    expect(bodyOf(calls(fetchMock, `PUT /api/linkedin/drafts/${IDS.draft}`)[0]![1])).toEqual({
      text: 'Well said, Grace.',
    });
    expect(await screen.findByText('Well said, Grace.')).toBeInTheDocument();

    const other = screen.getByText('Alan Turing').closest('li')!;
    await user.click(within(other).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByText('Second draft')).toBeNull());
    expect(bodyOf(calls(fetchMock, `PUT /api/linkedin/drafts/${IDS.comment}`)[0]![1])).toEqual({
      status: 'dismissed',
    });
  });

  it('history: stops a daily run and deletes an automation after asking; tabs move with the arrow keys', async () => {
    const user = userEvent.setup();
    let list = [
      makeAutomation({ dailyRun: true, repeat: 'daily' }),
      makeAutomation({ automationId: IDS.comment, status: 'Error', error: 'LINKEDIN_ERROR' }),
    ];
    const fetchMock = signedIn(
      {},
      {
        'GET /api/mongo/automation/getAllAutomations': () => ok({ automations: list }),
        'POST /api/mongo/automation/disableDailyRunAutomation': () => {
          list = list.map((a) => (a.automationId === IDS.post ? { ...a, dailyRun: false } : a));
          return ok(list[0]);
        },
        'DELETE /api/mongo/automation/delete-automation': () => {
          list = list.filter((a) => a.automationId !== IDS.comment);
          return ok({ deleted: 1 });
        },
      },
    );
    renderApp('/automation/dashboard-linkedin');
    const overview = await screen.findByRole('tab', { name: 'Overview' }, slow);
    overview.focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'History' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'History' })).toHaveFocus();
    expect(await screen.findByText('LinkedIn refused the post.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Stop repeating' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Stop repeating' })).toBeNull());
    const stop = calls(fetchMock, 'POST /api/mongo/automation/disableDailyRunAutomation')[0]![0];
    expect(new URL(stop, 'http://x').searchParams.get('automationId')).toBe(IDS.post);

    const errored = screen.getByText('LinkedIn refused the post.').closest('li')!;
    await user.click(within(errored).getByRole('button', { name: 'Delete' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('LinkedIn refused the post.')).toBeNull());
    const removed = calls(fetchMock, 'DELETE /api/mongo/automation/delete-automation')[0]![0];
    expect(new URL(removed, 'http://x').searchParams.get('automationId')).toBe(IDS.comment);
  });

  it('accounts and manage profiles tabs open from the address', async () => {
    signedIn({ profiles: [makeProfileFollow()] });
    const { unmount } = renderApp('/automation/dashboard-linkedin?tab=accounts');
    expect(await screen.findByText('One LinkedIn account can be connected at a time.', {}, slow)).toBeInTheDocument();
    // The note is there at once; the account's card once the connection has come.
    expect(await screen.findByRole('link', { name: 'Disconnect LinkedIn' })).toHaveAttribute(
      'href',
      '/automation/linkedInLogout',
    );
    unmount();
    renderApp('/automation/dashboard-linkedin?tab=profiles');
    expect(await screen.findByText('Grace Hopper', {}, slow)).toBeInTheDocument();
  });

  it('shows the pages in Spanish', async () => {
    signedIn({ language: 'es', drafts: [makeDraft()] });
    renderApp('/automation/dashboard-linkedin');
    expect(await screen.findByRole('tab', { name: 'Resumen' }, slow)).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Gestionar perfiles' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Aceptar' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Panel de LinkedIn | Parley'));
  });
});
