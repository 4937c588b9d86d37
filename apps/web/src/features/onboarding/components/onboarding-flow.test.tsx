import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { makeProfile, mockApi, ok, renderApp } from '../../../test/render-app';

/** The first render loads the page's code on demand. */
const slow = { timeout: 10_000 };

vi.mock('../../../lib/use-extension-presence', () => ({ useExtensionPresence: () => ({ status: 'absent' }) }));

describe('onboarding step 1', () => {
  it('walks Continue through every slide, the install one included, before step 2', async () => {
    const user = userEvent.setup();
    localStorage.setItem('token', 'tok');
    mockApi({ 'GET /api/user/profile': ok(makeProfile({ loginCount: 1 })), 'GET /api/user/setting': ok({}) });
    const { router } = renderApp('/on-boarding/1');
    const continueButton = await screen.findByRole('button', { name: 'Continue' }, slow);

    expect(screen.getByText('1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Write and reply faster' })).toBeInTheDocument();
    await user.click(continueButton);
    expect(screen.getByText('2 of 3')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Chat with the best models' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/on-boarding/1');
    await user.click(continueButton);
    expect(screen.getByText('3 of 3')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Install the extension' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Install the extension' })).toHaveAttribute(
      'href',
      '/install?next=/on-boarding/2',
    );
    expect(router.state.location.pathname).toBe('/on-boarding/1');
    await user.click(continueButton);
    expect(await screen.findByRole('heading', { level: 1, name: 'Make it yours' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/on-boarding/2');
  });

  it('lets the dots go back to an earlier slide', async () => {
    const user = userEvent.setup();
    localStorage.setItem('token', 'tok');
    mockApi({ 'GET /api/user/profile': ok(makeProfile({ loginCount: 1 })), 'GET /api/user/setting': ok({}) });
    renderApp('/on-boarding/1');
    await user.click(await screen.findByRole('button', { name: 'Show slide 3' }, slow));
    expect(screen.getByText('3 of 3')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show slide 1' }));
    expect(screen.getByRole('heading', { name: 'Write and reply faster' })).toBeInTheDocument();
  });
});
