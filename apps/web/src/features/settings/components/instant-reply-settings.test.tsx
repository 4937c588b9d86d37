import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '@parley/contract';
import { makeProfile, mockApi, ok, renderApp } from '../../../test/render-app';

const slow = { timeout: 20_000 };
/** Each test renders the whole app (lazy routes included): generous on a busy machine. */
const LONG = 30_000;

const posted = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls
    .filter(([url, init]) => String(url).endsWith('/api/user/setting') && init?.method === 'POST')
    .map(([, init]) => JSON.parse(String(init?.body)) as object);

describe('/setting/instant-reply', () => {
  it(
    'shows the account’s values and saves each change to the account, saying so',
    async () => {
      const user = userEvent.setup();
      localStorage.setItem('token', 'tok');
      const fetchMock = mockApi({
        'GET /api/user/profile': ok(makeProfile()),
        'GET /api/user/setting': ok({ ...DEFAULT_SETTINGS, tone: 'FRIENDLY', instantReplyOutlook: '0' }),
        'POST /api/user/setting': (_url, init) =>
          ok({ ...DEFAULT_SETTINGS, ...(JSON.parse(String(init.body)) as object) }),
      });
      renderApp('/setting/instant-reply');
      const tone = await screen.findByRole('combobox', { name: 'Tone' }, slow);
      expect(tone).toHaveValue('FRIENDLY');
      expect(screen.getByRole('heading', { level: 1, name: 'Instant reply' })).toBeInTheDocument();
      // Each setting says what it does.
      expect(screen.getByText('The language Parley writes replies, rewrites and summaries in.')).toBeInTheDocument();
      expect(screen.getByRole('switch', { name: 'Outlook' })).not.toBeChecked();
      expect(screen.getByRole('switch', { name: 'X (Twitter)' })).toBeChecked();

      await user.selectOptions(tone, 'FORMAL');
      await user.selectOptions(screen.getByRole('combobox', { name: 'Reply option' }), 'FOLLOW_UP');
      await user.click(screen.getByRole('switch', { name: 'Gmail' }));
      await waitFor(() =>
        expect(posted(fetchMock)).toEqual([
          { tone: 'FORMAL' },
          { replyOption: 'FOLLOW_UP' },
          { instantReplyGmail: '0' },
        ]),
      );
      expect(await screen.findByText('Saved.')).toBeInTheDocument();
      expect(screen.getByRole('switch', { name: 'Gmail' })).not.toBeChecked();
      expect(document.title).toBe('Instant reply | Parley');
    },
    LONG,
  );

  it(
    'a change made while an earlier one is being saved stays: the earlier answer does not put the switch back',
    async () => {
      const user = userEvent.setup();
      localStorage.setItem('token', 'tok');
      let server = { ...DEFAULT_SETTINGS };
      let releaseFirst: () => void = () => {};
      const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
      let calls = 0;
      mockApi({
        'GET /api/user/profile': ok(makeProfile()),
        'GET /api/user/setting': ok(server),
        'POST /api/user/setting': async (_url, init) => {
          // The server applies each change as it comes and answers with what it holds then.
          server = { ...server, ...(JSON.parse(String(init.body)) as object) };
          const answer = ok({ ...server });
          if (++calls === 1) await firstHeld;
          return answer;
        },
      });
      renderApp('/setting/instant-reply');
      const tone = await screen.findByRole('combobox', { name: 'Tone' }, slow);
      await user.selectOptions(tone, 'FORMAL');
      await user.click(screen.getByRole('switch', { name: 'Gmail' }));
      await waitFor(() => expect(calls).toBe(2));
      expect(screen.getByRole('switch', { name: 'Gmail' })).not.toBeChecked();
      releaseFirst();
      expect(await screen.findByText('Saved.')).toBeInTheDocument();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(screen.getByRole('switch', { name: 'Gmail' })).not.toBeChecked();
      expect(tone).toHaveValue('FORMAL');
    },
    LONG,
  );

  it(
    'puts the value back and says why, in the person’s language, when the server refuses',
    async () => {
      const user = userEvent.setup();
      localStorage.setItem('token', 'tok');
      mockApi({
        'GET /api/user/profile': ok(makeProfile({ language: 'fr' })),
        'GET /api/user/setting': ok(DEFAULT_SETTINGS),
        'POST /api/user/setting': {
          status: 400,
          body: { status: 400, code: 'VALIDATION', message: 'Certains champs ne sont pas valides.' },
        },
      });
      renderApp('/setting/instant-reply');
      const length = await screen.findByRole('combobox', { name: 'Longueur' }, slow);
      await user.selectOptions(length, 'LONG');
      expect(
        await screen.findByText('Non enregistré : Certains champs ne sont pas valides.', {}, slow),
      ).toBeInTheDocument();
      await waitFor(() => expect(length).toHaveValue('MEDIUM'));
    },
    LONG,
  );

  it(
    'says when the settings cannot be loaded, and tries again on request',
    async () => {
      const user = userEvent.setup();
      localStorage.setItem('token', 'tok');
      let fail = true;
      mockApi({
        'GET /api/user/profile': ok(makeProfile()),
        'GET /api/user/setting': () =>
          fail
            ? { status: 404, body: { status: 404, code: 'NOT_FOUND', message: 'Not found.' } }
            : ok(DEFAULT_SETTINGS),
      });
      renderApp('/setting/instant-reply');
      expect(await screen.findByText(/Your settings could not be loaded/, {}, slow)).toBeInTheDocument();
      fail = false;
      await user.click(screen.getByRole('button', { name: 'Try again' }));
      expect(await screen.findByRole('combobox', { name: 'Tone' }, slow)).toHaveValue('CASUAL');
    },
    LONG,
  );
});
