import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ok, renderApp } from '../../../test/render-app';
import { calls, makeStats, refused, signedIn } from '../test-fixtures';

const slow = { timeout: 10_000 };

describe('/automation/linkedInStatus', { timeout: 30_000 }, () => {
  it('shows the eight metrics with their latest value, day and a chart', async () => {
    signedIn({ stats: makeStats({ followers: [1200, 1250, 1320], ssiScore: [61.5] }) });
    renderApp('/automation/linkedInStatus');
    expect(await screen.findByText('1,320', { selector: 'p' }, slow)).toBeInTheDocument();
    expect(document.title).toBe('LinkedIn stats | Parley');
    for (const name of ['Followers', 'Connections', 'Posts', 'Impressions', 'Likes', 'Comments', 'SSI Score'])
      expect(screen.getByRole('heading', { level: 3, name })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 3, name: 'Profile viewers (last 90 days)' })).toBeInTheDocument();
    expect(screen.getByText('61.5', { selector: 'p' })).toBeInTheDocument();
    expect(screen.getByText('On Apr 3, 2026')).toBeInTheDocument();
    expect(screen.getByTestId('chart-followers')).toBeInTheDocument();
    // The same numbers for screen readers.
    expect(screen.getByRole('table', { name: 'Followers over time' })).toHaveTextContent('1,250');
  });

  it('asks for another period', async () => {
    const user = userEvent.setup();
    const fetchMock = signedIn();
    renderApp('/automation/linkedInStatus');
    await user.click(await screen.findByRole('button', { name: 'Last 30 days' }, slow));
    await waitFor(() =>
      expect(calls(fetchMock, 'GET /api/linkedin/stats').map(([u]) => new URL(u, 'http://x').search)).toContain(
        '?days=30',
      ),
    );
    expect(screen.getByRole('button', { name: 'Last 30 days' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('imports a CSV export as multipart and shows the new numbers', async () => {
    const user = userEvent.setup();
    let imported = false;
    let sent: FormDataEntryValue | null = null;
    signedIn(
      {},
      {
        'GET /api/linkedin/stats': () => ok(imported ? makeStats({ impressions: [900, 1400] }) : makeStats()),
        'POST /api/linkedin/stats/import': (_url, init) => {
          sent = (init.body as FormData).get('file');
          imported = true;
          return ok({ imported: 2, days: 2 });
        },
      },
    );
    renderApp('/automation/linkedInStatus');
    expect(await screen.findByText(/No stats yet/, {}, slow)).toBeInTheDocument();
    const file = new File(['Date,Impressions\n04/01/2026,900\n04/02/2026,1400\n'], 'analytics.csv', {
      type: 'text/csv',
    });
    await user.upload(screen.getByLabelText('Choose the export file'), file);
    expect(await screen.findByText('2 readings imported over 2 days.')).toBeInTheDocument();
    expect((sent as unknown as File).name).toBe('analytics.csv');
    expect(await screen.findByText('1,400', { selector: 'p' })).toBeInTheDocument();
  });

  it('says which columns are read, and why followers could not be charted when the total line was missing', async () => {
    const user = userEvent.setup();
    let notes: string[] = [];
    signedIn({}, { 'POST /api/linkedin/stats/import': () => ok({ imported: 3, days: 3, notes }) });
    renderApp('/automation/linkedInStatus');
    expect(
      await screen.findByText(/^Columns read, as LinkedIn names them: Date, with Impressions/, {}, slow),
    ).toHaveTextContent(/New followers with the “Total followers on …” line/);
    const input = screen.getByLabelText('Choose the export file');
    const file = () => new File(['Date,New followers\n04/01/2026,3\n'], 'analytics.csv', { type: 'text/csv' });
    await user.upload(input, file());
    expect(await screen.findByText('3 readings imported over 3 days.')).toBeInTheDocument();
    expect(screen.queryByText(/New followers were found/)).toBeNull();

    notes = ['followersWithoutTotal'];
    await user.upload(input, file());
    expect(
      await screen.findByText(
        'New followers were found but not your total number of followers, so followers could not be charted. LinkedIn’s export has a “Total followers on …” line above them: import that file unchanged.',
      ),
    ).toBeInTheDocument();
  });

  it('gives the note and the columns in French', async () => {
    const user = userEvent.setup();
    signedIn(
      { language: 'fr' },
      { 'POST /api/linkedin/stats/import': ok({ imported: 1, days: 1, notes: ['followersWithoutTotal'] }) },
    );
    renderApp('/automation/linkedInStatus');
    expect(await screen.findByText(/^Colonnes lues/, {}, slow)).toBeInTheDocument();
    await user.upload(
      screen.getByLabelText('Choisir le fichier exporté'),
      new File(['Date,New followers\n04/01/2026,3\n'], 'analytics.csv', { type: 'text/csv' }),
    );
    expect(await screen.findByText(/^De nouveaux abonnés ont été trouvés/)).toHaveTextContent(
      /importez ce fichier sans le modifier\.$/,
    );
  });

  it('refuses a file that is not CSV or XLSX before sending, and shows the server refusing one', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const fetchMock = signedIn(
      {},
      { 'POST /api/linkedin/stats/import': refused(400, 'VALIDATION_ERROR', 'No LinkedIn numbers in this file.') },
    );
    renderApp('/automation/linkedInStatus');
    const input = await screen.findByLabelText('Choose the export file', {}, slow);
    await user.upload(input, new File(['x'], 'photo.png', { type: 'image/png' }));
    expect(screen.getByText('Choose a CSV or XLSX file exported from LinkedIn.')).toBeInTheDocument();
    expect(calls(fetchMock, 'POST /api/linkedin/stats/import')).toHaveLength(0);
    await user.upload(input, new File(['a,b'], 'other.csv', { type: 'text/csv' }));
    expect(await screen.findByText('No LinkedIn numbers in this file.')).toBeInTheDocument();
  });

  it('writes the numbers and dates in French', async () => {
    signedIn({ stats: makeStats({ followers: [1200, 12345] }), language: 'fr' });
    renderApp('/automation/linkedInStatus');
    expect(await screen.findByRole('heading', { level: 1, name: 'Statistiques LinkedIn' }, slow)).toBeInTheDocument();
    expect(await screen.findByText('12 345', { selector: 'p' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 3, name: 'Vues du profil (90 derniers jours)' })).toBeInTheDocument();
    expect(screen.getByText('Le 2 avr. 2026')).toBeInTheDocument();
  });
});
