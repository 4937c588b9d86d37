import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { LOADER_ROTATE_MS } from '@parley/contract';
import { ok, renderApp } from '../../../test/render-app';
import { calls, IDS, makeAutomation, signedIn } from '../test-fixtures';

const slow = { timeout: 10_000 };

describe('/automation/li-automation', { timeout: 30_000 }, () => {
  it('Post Automation lists the posts; Overview Status counts every automation by status', async () => {
    const user = userEvent.setup();
    signedIn({
      automations: [
        makeAutomation(),
        makeAutomation({ automationId: IDS.comment, kind: 'aiComment', status: 'Completed', text: 'A comment' }),
        makeAutomation({ automationId: IDS.draft, status: 'Error', text: 'Failed post', error: 'SOMETHING_NEW' }),
      ],
    });
    renderApp('/automation/li-automation');
    expect(await screen.findByRole('tab', { name: 'Post Automation', selected: true }, slow)).toBeInTheDocument();
    expect(document.title).toBe('Automations | Parley');
    expect(await screen.findByText('Three things I learned shipping a roadmap.')).toBeInTheDocument();
    expect(screen.getByText('Failed post')).toBeInTheDocument();
    expect(screen.queryByText('A comment')).toBeNull();
    // An error code the page does not know yet still reads as a sentence.
    expect(screen.getByText('It could not run.')).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Overview Status' }));
    const panel = screen.getByRole('tabpanel');
    expect(within(panel).getByText('A comment')).toBeInTheDocument();
    const pending = within(panel)
      .getAllByText('Pending')
      .find((el) => el.tagName === 'DT')!;
    expect(pending.nextElementSibling).toHaveTextContent('1');
    const completed = within(panel)
      .getAllByText('Completed')
      .find((el) => el.tagName === 'DT')!;
    expect(completed.nextElementSibling).toHaveTextContent('1');
  });
  it("names the time zone of a run and a publication, whatever the browser's zone", async () => {
    signedIn({
      automations: [
        makeAutomation({
          status: 'Completed',
          runAt: '2026-06-01T14:29:00.000Z',
          publishedAt: '2026-06-01T14:29:00.000Z',
        }),
      ],
    });
    renderApp('/automation/li-automation');
    const runs = await screen.findByText('Runs:', { selector: 'dt' }, slow);
    expect(runs.nextElementSibling).toHaveTextContent('Jun 1, 2026, 4:29 PM (Europe/Paris)');
    const published = screen.getByText('Published:', { selector: 'dt' });
    expect(published.nextElementSibling).toHaveTextContent('Jun 1, 2026, 4:29 PM (Europe/Paris)');
  });

  it('writes the labels the French way (a space before the colon) and lets the tabs wrap', async () => {
    signedIn({
      language: 'fr',
      automations: [makeAutomation({ runAt: '2026-06-01T14:29:00.000Z', timezone: 'America/New_York' })],
    });
    renderApp('/automation/li-automation');
    const runs = await screen.findByText(/^Exécution/, { selector: 'dt' }, slow);
    expect(runs.textContent).toBe('Exécution\u00a0: ');
    expect(runs.nextElementSibling).toHaveTextContent('1 juin 2026, 10:29 (America/New York)');
    expect(screen.getByText(/^Répétition/, { selector: 'dt' }).textContent).toBe('Répétition\u00a0: ');
    // On a narrow screen the tabs and the links between the pages go onto more lines, never cut mid-word.
    expect(screen.getByRole('tablist')).toHaveClass('flex-wrap');
    expect(screen.getByRole('tablist')).not.toHaveClass('overflow-x-auto');
    for (const tab of screen.getAllByRole('tab')) expect(tab).not.toHaveClass('whitespace-nowrap');
    const links = within(screen.getByRole('navigation', { name: 'Pages LinkedIn' })).getByRole('list');
    expect(links).toHaveClass('flex-wrap');
    expect(links).not.toHaveClass('whitespace-nowrap');
  });

  it('a post LinkedIn never confirmed says it may be there, and Try again schedules it again', async () => {
    const user = userEvent.setup();
    let list = [makeAutomation({ status: 'Error', error: 'LINKEDIN_UNCONFIRMED', runAt: null })];
    const fetchMock = signedIn(
      {},
      {
        'GET /api/mongo/automation/getAllAutomations': () => ok({ automations: list }),
        'POST /api/mongo/automation/updateAutomationStatus': () => {
          list = [{ ...list[0]!, status: 'Pending', error: null, runAt: '2026-06-01T14:29:00.000Z' }];
          return ok(list[0]);
        },
      },
    );
    renderApp('/automation/li-automation');
    expect(
      await screen.findByText(/LinkedIn did not confirm this post\. It may be on your profile already/, {}, slow),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Scheduled again')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull());
    const [url] = calls(fetchMock, 'POST /api/mongo/automation/updateAutomationStatus')[0]!;
    const query = new URL(url, 'http://x').searchParams;
    expect([query.get('automationId'), query.get('automationStatus')]).toEqual([IDS.post, 'Pending']);
  });

  it('an automation that failed for the connection says so and leads to connecting again', async () => {
    signedIn({ automations: [makeAutomation({ status: 'Error', error: 'LINKEDIN_LOGIN_NEEDED' })] });
    renderApp('/automation/li-automation');
    const said = await screen.findByText(/LinkedIn needs you to connect again\./, {}, slow);
    expect(within(said).getByRole('link', { name: 'Connect again' })).toHaveAttribute(
      'href',
      '/automation/linkedin-access-1',
    );
  });
});

describe('/automation/linkedInSetting', { timeout: 30_000 }, () => {
  it('holds the account, the engagement settings and the links to the rest', async () => {
    signedIn({ settings: { autoEngage: true, languages: ['SPANISH'] } });
    renderApp('/automation/linkedInSetting');
    expect(await screen.findByRole('switch', { name: 'Auto-engage' }, slow)).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Spanish' })).toBeChecked();
    expect(screen.getByText('Connected')).toBeInTheDocument();
    const more = screen.getByRole('heading', { name: 'More settings' }).parentElement!;
    expect(within(more).getByRole('link', { name: 'AI Customization' })).toHaveAttribute(
      'href',
      '/automation/customization',
    );
  });
});

describe('the global loader', { timeout: 30_000 }, () => {
  it('shows the connect messages, a new one every 2 seconds, while the connection loads', async () => {
    let answer: (() => void) | undefined;
    signedIn(
      {},
      {
        'GET /api/linkedin/connection': () =>
          new Promise((resolve) => {
            answer = () => resolve({ body: { status: 200, message: 'OK', data: null } });
          }),
      },
    );
    renderApp('/automation/linkedin-access-1');
    const status = await screen.findByText('Connecting…', {}, slow);
    expect(status.closest('[role="status"]')).toBeInTheDocument();
    await act(() => new Promise((r) => setTimeout(r, LOADER_ROTATE_MS + 200)));
    expect(screen.getByText('Checking your account…')).toBeInTheDocument();
    await act(async () => answer?.());
  });
});

describe('/automation/post-automation/status', { timeout: 30_000 }, () => {
  it("opens the automations' Overview Status", async () => {
    signedIn({ automations: [makeAutomation()] });
    const { router } = renderApp('/automation/post-automation/status');
    expect(await screen.findByRole('tab', { name: 'Overview Status', selected: true }, slow)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/automation/li-automation');
  });
});
