import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LINKEDIN_SETTINGS } from '@parley/contract';
import { ok, renderApp } from '../../../test/render-app';
import { bodyOf, calls, IDS, makeKeyword, makeProfileFollow, refused, signedIn } from '../test-fixtures';

const slow = { timeout: 10_000 };

describe('/automation/keywords', { timeout: 30_000 }, () => {
  it('lists keywords with their comma-separated lists and says avoiding or including is not guaranteed', async () => {
    signedIn({ keywords: [makeKeyword()] });
    renderApp('/automation/keywords');
    expect(await screen.findByRole('heading', { level: 1, name: 'Engage on Keywords' }, slow)).toBeInTheDocument();
    expect(document.title).toBe('Engage on Keywords | Parley');
    expect(screen.getByText(/Avoiding or including them is not guaranteed/)).toBeInTheDocument();
    expect(await screen.findByText('product management')).toBeInTheDocument();
    expect(screen.getByText('roadmap, discovery')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Your keywords (1)' })).toBeInTheDocument();
  });

  it('writes the labels of a keyword the French way', async () => {
    signedIn({ language: 'fr', keywords: [makeKeyword()] });
    renderApp('/automation/keywords');
    expect((await screen.findByText(/^Mots à éviter/, { selector: 'dt' }, slow)).textContent).toBe(
      'Mots à éviter\u00a0: ',
    );
    expect(screen.getByText(/^Mots à inclure/, { selector: 'dt' }).textContent).toBe('Mots à inclure\u00a0: ');
    expect(screen.getByText(/^Brouillons aujourd’hui/, { selector: 'dt' }).textContent).toBe(
      'Brouillons aujourd’hui\u00a0: ',
    );
  });

  it("writes a followed profile's drafts of the day the French way", async () => {
    signedIn({ language: 'fr', profiles: [makeProfileFollow()] });
    renderApp('/automation/profiles');
    const drafts = await screen.findByText(/^Brouillons aujourd’hui/, { selector: 'p' }, slow);
    expect(drafts.textContent).toBe('Brouillons aujourd’hui\u00a0: 0');
  });

  it('adds a keyword, splitting the lists on commas (trimmed, without repeats)', async () => {
    const user = userEvent.setup();
    const fetchMock = signedIn(
      {},
      {
        'POST /api/linkedin/keywords': (_url, init) =>
          ok(makeKeyword({ ...(bodyOf(init) as object), id: IDS.keyword })),
      },
    );
    renderApp('/automation/keywords');
    await user.click(await screen.findByRole('button', { name: 'Add the keyword' }, slow));
    expect(screen.getByText('Enter a keyword')).toBeInTheDocument();
    expect(calls(fetchMock, 'POST /api/linkedin/keywords')).toHaveLength(0);

    await user.type(screen.getByLabelText('Keyword'), '  growth  ');
    await user.type(screen.getByLabelText('Words to avoid'), 'crypto, , Crypto,  giveaway ');
    await user.type(screen.getByLabelText('Words to include'), 'saas');
    await user.click(screen.getByRole('button', { name: 'Add the keyword' }));
    await waitFor(() => expect(calls(fetchMock, 'POST /api/linkedin/keywords')).toHaveLength(1));
    expect(bodyOf(calls(fetchMock, 'POST /api/linkedin/keywords')[0]![1])).toEqual({
      keyword: 'growth',
      avoid: ['crypto', 'giveaway'],
      include: ['saas'],
      active: true,
    });
    expect(await screen.findByText('growth')).toBeInTheDocument();
    expect(screen.getByLabelText('Keyword')).toHaveValue('');
  });

  it('turns a keyword off with its switch (only what changed is sent) and deletes after asking', async () => {
    const user = userEvent.setup();
    const fetchMock = signedIn(
      { keywords: [makeKeyword()] },
      {
        [`PUT /api/linkedin/keywords/${IDS.keyword}`]: ok(makeKeyword({ active: false })),
        [`DELETE /api/linkedin/keywords/${IDS.keyword}`]: ok({ deleted: 1 }),
      },
    );
    renderApp('/automation/keywords');
    await user.click(await screen.findByRole('switch', { name: 'product management active' }, slow));
    await waitFor(() => expect(calls(fetchMock, `PUT /api/linkedin/keywords/${IDS.keyword}`)).toHaveLength(1));
    expect(bodyOf(calls(fetchMock, `PUT /api/linkedin/keywords/${IDS.keyword}`)[0]![1])).toEqual({ active: false });
    expect(await screen.findByRole('switch', { name: 'product management active' })).not.toBeChecked();

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('product management')).toBeNull());
    expect(screen.getByText('No keywords yet.')).toBeInTheDocument();
  });

  it('shows the upgrade prompt when the plan has no auto-engage (402), and the switch stays off', async () => {
    const user = userEvent.setup();
    signedIn(
      {},
      {
        'PUT /api/linkedin/settings': refused(402, 'UPGRADE_REQUIRED', 'You need to upgrade plan to continue...'),
      },
    );
    renderApp('/automation/keywords');
    const autoEngage = await screen.findByRole('switch', { name: 'Auto-engage' }, slow);
    await user.click(autoEngage);
    const prompt = await screen.findByText('Upgrade needed');
    expect(prompt.closest('[role="alert"]')).toHaveTextContent('You need to upgrade plan to continue...');
    expect(screen.getByRole('link', { name: 'See the plans' })).toHaveAttribute('href', '/subscription');
    expect(screen.getByRole('switch', { name: 'Auto-engage' })).not.toBeChecked();
  });

  it('saves the languages and the comments per keyword per day, refusing a count out of range', async () => {
    const user = userEvent.setup();
    const fetchMock = signedIn(
      {},
      {
        'PUT /api/linkedin/settings': (_url, init) => ok({ ...DEFAULT_LINKEDIN_SETTINGS, ...bodyOf(init) }),
      },
    );
    renderApp('/automation/keywords');
    await user.click(await screen.findByRole('checkbox', { name: 'French' }, slow));
    const perDay = screen.getByRole('spinbutton', { name: 'Comments per keyword per day' });
    await user.clear(perDay);
    await user.type(perDay, '99');
    expect(screen.getByText('Between 1 and 20')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save the engagement settings' })).toBeDisabled();
    await user.clear(perDay);
    await user.type(perDay, '5');
    await user.click(screen.getByRole('button', { name: 'Save the engagement settings' }));
    await waitFor(() => expect(calls(fetchMock, 'PUT /api/linkedin/settings')).toHaveLength(1));
    expect(bodyOf(calls(fetchMock, 'PUT /api/linkedin/settings')[0]![1])).toEqual({
      languages: ['FRENCH'],
      commentsPerKeywordPerDay: 5,
    });
  });
});

describe('/automation/profiles', { timeout: 30_000 }, () => {
  it('follows a profile by its address (made canonical) and refuses an address that is not a profile', async () => {
    const user = userEvent.setup();
    const fetchMock = signedIn(
      {},
      {
        'POST /api/linkedin/profiles': (_url, init) =>
          ok(makeProfileFollow({ url: String(bodyOf(init).url), name: null })),
      },
    );
    renderApp('/automation/profiles');
    const url = await screen.findByLabelText('Profile URL', {}, slow);
    await user.type(url, 'https://example.com/in/ada');
    await user.click(screen.getByRole('button', { name: 'Follow' }));
    expect(screen.getByText('This is not a LinkedIn profile address')).toBeInTheDocument();
    expect(calls(fetchMock, 'POST /api/linkedin/profiles')).toHaveLength(0);

    await user.clear(url);
    await user.type(url, 'linkedin.com/in/grace-hopper?trk=x');
    await user.click(screen.getByRole('button', { name: 'Follow' }));
    await waitFor(() => expect(calls(fetchMock, 'POST /api/linkedin/profiles')).toHaveLength(1));
    expect(bodyOf(calls(fetchMock, 'POST /api/linkedin/profiles')[0]![1])).toEqual({
      url: 'https://www.linkedin.com/in/grace-hopper/',
      active: true,
    });
    expect(await screen.findByRole('heading', { name: 'Followed profiles (1)' })).toBeInTheDocument();
  });

  it('shows the server refusing a profile already followed', async () => {
    const user = userEvent.setup();
    signedIn(
      { profiles: [makeProfileFollow()] },
      { 'POST /api/linkedin/profiles': refused(400, 'LINKEDIN_PROFILE_EXISTS', 'You already follow this profile.') },
    );
    renderApp('/automation/profiles');
    await user.type(await screen.findByLabelText('Profile URL', {}, slow), 'https://www.linkedin.com/in/grace-hopper/');
    await user.click(screen.getByRole('button', { name: 'Follow' }));
    expect(await screen.findByText('You already follow this profile.')).toBeInTheDocument();
  });
});
