import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LINKEDIN_SETTINGS } from '@parley/contract';
import { ok, renderApp } from '../../../test/render-app';
import { bodyOf, calls, refused, signedIn } from '../test-fixtures';

const slow = { timeout: 10_000 };

describe('/automation/customization', { timeout: 30_000 }, () => {
  it('shows the lengths with their word counts and the creativity from Conservative to Wild', async () => {
    signedIn();
    renderApp('/automation/customization');
    expect(await screen.findByRole('heading', { level: 1, name: 'AI Customization' }, slow)).toBeInTheDocument();
    expect(await screen.findByText('About 10 words', {}, slow)).toBeInTheDocument();
    expect(screen.getByText('About 5 words')).toBeInTheDocument();
    expect(screen.getByText('About 25 words')).toBeInTheDocument();
    expect(screen.getByText('About 50 words')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /^Small/ })).toBeChecked();
    expect(screen.getByRole('slider', { name: /Creativity/ })).toHaveAttribute('aria-valuetext', 'Balanced');
    expect(screen.getByText('Conservative')).toBeInTheDocument();
    expect(screen.getByText('Wild')).toBeInTheDocument();
  });

  it('writes the creativity label the French way, with a space before the colon', async () => {
    signedIn({ language: 'fr' });
    renderApp('/automation/customization');
    const slider = await screen.findByRole('slider', { name: /Créativité/ }, slow);
    const label = document.querySelector(`label[for="${slider.id}"]`)!;
    expect(label.textContent).toBe('Créativité\u00a0: Équilibrée');
  });

  it('saves every choice: a prompt, type, length, creativity, emojis, hashtags, the word lists', async () => {
    const user = userEvent.setup();
    const fetchMock = signedIn(
      {},
      { 'PUT /api/linkedin/settings': (_url, init) => ok({ ...DEFAULT_LINKEDIN_SETTINGS, ...bodyOf(init) }) },
    );
    renderApp('/automation/customization');
    await user.click(await screen.findByRole('button', { name: 'Add a prompt' }, slow));
    await screen.findByRole('radio', { name: /Medium/ });
    await user.click(screen.getByRole('button', { name: 'Save the customization' }));
    expect(screen.getByText('Enter a label')).toBeInTheDocument();
    expect(calls(fetchMock, 'PUT /api/linkedin/settings')).toHaveLength(0);

    await user.type(screen.getByLabelText('Label 1'), 'Founder voice');
    await user.type(screen.getByLabelText('Prompt 1'), 'Write as a founder.');
    await user.selectOptions(screen.getByLabelText('Comment type'), 'question');
    await user.click(screen.getByRole('radio', { name: /^Medium/ }));
    const slider = screen.getByRole('slider', { name: /Creativity/ });
    fireEvent.change(slider, { target: { value: '3' } });
    expect(slider).toHaveAttribute('aria-valuetext', 'Wild');
    await user.click(screen.getByRole('switch', { name: 'Allow emojis' }));
    await user.click(screen.getByRole('switch', { name: 'Allow hashtags' }));
    await user.click(screen.getByRole('switch', { name: /Display AI comments/ }));
    await user.type(screen.getByLabelText('Keywords to avoid'), 'politics, religion');
    await user.type(screen.getByLabelText('Keywords to include'), 'product');
    await user.click(screen.getByRole('button', { name: 'Save the customization' }));

    await waitFor(() => expect(calls(fetchMock, 'PUT /api/linkedin/settings')).toHaveLength(1));
    expect(bodyOf(calls(fetchMock, 'PUT /api/linkedin/settings')[0]![1])).toEqual({
      customPrompts: [{ label: 'Founder voice', prompt: 'Write as a founder.' }],
      commentType: 'question',
      commentLength: 'medium',
      creativity: 'wild',
      allowEmojis: true,
      allowHashtags: true,
      avoidWords: ['politics', 'religion'],
      includeWords: ['product'],
      displayAiComments: false,
    });
    expect(await screen.findByLabelText('Keywords to avoid')).toHaveValue('politics, religion');
  });

  it('shows a refused save in the words of the server', async () => {
    const user = userEvent.setup();
    signedIn({}, { 'PUT /api/linkedin/settings': refused(400, 'VALIDATION_ERROR', 'Un mot est trop long.') });
    renderApp('/automation/customization');
    await user.click(await screen.findByRole('button', { name: 'Save the customization' }, slow));
    expect(await screen.findByText('Un mot est trop long.')).toBeInTheDocument();
  });
});
