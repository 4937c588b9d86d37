import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ok, renderApp } from '../../../test/render-app';
import { POST_SCHEDULE_MAX_DAYS } from '@parley/contract';
import { browserTimeZone, localParts } from '../lib/linkedin-lib';
import { bodyOf, calls, IDS, makeAutomation, notConnected, refused, signedIn } from '../test-fixtures';

const slow = { timeout: 10_000 };

describe('/automation/post-automation', { timeout: 30_000 }, () => {
  it('lists the scheduled posts with their status and time', async () => {
    signedIn({
      automations: [
        makeAutomation(),
        makeAutomation({
          automationId: IDS.comment,
          status: 'Completed',
          runAt: null,
          text: 'Published one',
          postUrl: 'https://www.linkedin.com/feed/update/urn:li:share:1/',
          publishedAt: '2026-04-01T08:30:00.000Z',
        }),
      ],
    });
    renderApp('/automation/post-automation');
    expect(await screen.findByText('Three things I learned shipping a roadmap.', {}, slow)).toBeInTheDocument();
    expect(screen.getByText('Pending')).toBeInTheDocument();
    expect(screen.getByText('Completed')).toBeInTheDocument();
    // 08:30 UTC in the post's own time zone (Paris, summer time), which is named.
    expect(screen.getByText('Jun 1, 2026, 10:30 AM (Europe/Paris)')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open on LinkedIn' })).toHaveAttribute(
      'href',
      'https://www.linkedin.com/feed/update/urn:li:share:1/',
    );
    expect(screen.getByRole('link', { name: 'Edit' })).toHaveAttribute(
      'href',
      `/automation/post-automation/${IDS.post}`,
    );
  });

  it('writes a post with AI from an idea, previews it and schedules it in the browser time zone', async () => {
    const user = userEvent.setup();
    const fetchMock = signedIn(
      {},
      {
        'POST /api/linkedin/posts/write': ok({ text: 'Shipping weekly taught me three things.\n\n#product' }),
        'POST /api/linkedin/posts': (_url, init) =>
          ok(makeAutomation({ text: String(bodyOf(init).text), automationId: IDS.comment })),
      },
    );
    const { router } = renderApp('/automation/post-automation/new');
    expect(await screen.findByRole('heading', { level: 1, name: 'New post' }, slow)).toBeInTheDocument();
    expect(screen.getByLabelText('Time zone')).toHaveValue(browserTimeZone());
    // The picker offers no day with a time the server would refuse.
    const lastDay = localParts(
      new Date(Date.now() + (POST_SCHEDULE_MAX_DAYS - 1) * 86_400_000),
      browserTimeZone(),
    ).date;
    expect(screen.getByLabelText('Date')).toHaveAttribute('max', lastDay);
    expect(screen.getByText('Your post shows here as it will look.')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Your idea'), 'lessons from shipping weekly');
    await user.click(screen.getByRole('button', { name: 'Write with AI' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Post')).toHaveValue('Shipping weekly taught me three things.\n\n#product'),
    );
    expect(bodyOf(calls(fetchMock, 'POST /api/linkedin/posts/write')[0]![1])).toEqual({
      idea: 'lessons from shipping weekly',
    });
    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(preview).toHaveTextContent('Ada Lovelace');
    expect(preview).toHaveTextContent('Shipping weekly taught me three things.');
    expect(preview).toHaveTextContent('Anyone');

    await user.clear(screen.getByLabelText('Date'));
    await user.type(screen.getByLabelText('Date'), '2026-12-24');
    await user.clear(screen.getByLabelText('Time'));
    await user.type(screen.getByLabelText('Time'), '09:15');
    await user.selectOptions(screen.getByLabelText('Repeat'), 'weekly');
    await user.selectOptions(screen.getByLabelText('Who can see it'), 'CONNECTIONS');
    expect(preview).toHaveTextContent('Connections only');
    await user.click(screen.getByRole('button', { name: 'Schedule the post' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/automation/post-automation'));
    expect(bodyOf(calls(fetchMock, 'POST /api/linkedin/posts')[0]![1])).toEqual({
      text: 'Shipping weekly taught me three things.\n\n#product',
      scheduledFor: '2026-12-24T09:15',
      timezone: browserTimeZone(),
      repeat: 'weekly',
      visibility: 'CONNECTIONS',
    });
  });

  it('asks for the text, says when LinkedIn is not connected, and shows a refused schedule', async () => {
    const user = userEvent.setup();
    signedIn(
      { connection: notConnected() },
      { 'POST /api/linkedin/posts': refused(400, 'LINKEDIN_NOT_CONNECTED', 'Connect LinkedIn first.') },
    );
    renderApp('/automation/post-automation/new');
    expect(
      await screen.findByText('Connect your LinkedIn account so this post can be published.', {}, slow),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Schedule the post' }));
    expect(screen.getByText('Write the post')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Post'), 'Hello LinkedIn');
    await user.click(screen.getByRole('button', { name: 'Schedule the post' }));
    expect(await screen.findByText('Connect LinkedIn first.')).toBeInTheDocument();
  });

  it('edits a scheduled post with its own date, time and time zone', async () => {
    const user = userEvent.setup();
    const fetchMock = signedIn(
      { automations: [makeAutomation()] },
      {
        [`PUT /api/linkedin/posts/${IDS.post}`]: (_url, init) =>
          ok(makeAutomation({ text: String(bodyOf(init).text) })),
      },
    );
    renderApp(`/automation/post-automation/${IDS.post}`);
    expect(await screen.findByLabelText('Post', {}, slow)).toHaveValue('Three things I learned shipping a roadmap.');
    expect(screen.getByLabelText('Date')).toHaveValue('2026-06-01');
    expect(screen.getByLabelText('Time')).toHaveValue('10:30');
    expect(screen.getByLabelText('Time zone')).toHaveValue('Europe/Paris');
    await user.type(screen.getByLabelText('Post'), ' Number three matters most.');
    await user.click(screen.getByRole('button', { name: 'Save the post' }));
    await waitFor(() => expect(calls(fetchMock, `PUT /api/linkedin/posts/${IDS.post}`)).toHaveLength(1));
    expect(bodyOf(calls(fetchMock, `PUT /api/linkedin/posts/${IDS.post}`)[0]![1])).toMatchObject({
      scheduledFor: '2026-06-01T10:30',
      timezone: 'Europe/Paris',
    });
  });
});
