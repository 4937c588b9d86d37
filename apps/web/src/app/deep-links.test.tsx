import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeProfile, mockApi, ok, renderApp } from '../test/render-app';

// Pages load on demand; on a busy machine the first one can take a few seconds.
configure({ asyncUtilTimeout: 8000 });

const slow = { timeout: 4000 };
const config = ok({ googleClientId: null, appName: 'Parley' });

async function logIn() {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
  await user.type(screen.getByLabelText('Password'), 'secret-pass');
  await user.click(screen.getByRole('button', { name: 'Log in' }));
}

describe('deep links survive signing in', { timeout: 30_000 }, () => {
  it('a protected page opened signed out sends to /login?next= and comes back after logging in', async () => {
    mockApi({
      'GET /api/auth/config': config,
      'POST /api/auth/login': ok({ token: 'tok', user: makeProfile() }),
      'GET /api/user/profile': ok(makeProfile()),
      'GET /api/user/setting': ok({}),
    });
    const { router } = renderApp('/profile?tab=1');
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe(`?next=${encodeURIComponent('/profile?tab=1')}`);
    await logIn();
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'), slow);
    expect(router.state.location.search).toBe('?tab=1');
  });

  it('a first login still goes through onboarding', async () => {
    mockApi({
      'GET /api/auth/config': config,
      'POST /api/auth/login': ok({ token: 'tok', user: makeProfile({ loginCount: 1 }) }),
      'GET /api/user/profile': ok(makeProfile({ loginCount: 1 })),
      'GET /api/user/setting': ok({}),
    });
    const { router } = renderApp('/login?next=%2Fprofile');
    await logIn();
    await waitFor(() => expect(router.state.location.pathname).toBe('/on-boarding/1'), slow);
  });

  it('ignores another site in ?next=', async () => {
    mockApi({
      'GET /api/auth/config': config,
      'POST /api/auth/login': ok({ token: 'tok', user: makeProfile() }),
      'GET /api/user/profile': ok(makeProfile()),
    });
    const { router } = renderApp(`/login?next=${encodeURIComponent('//evil.example/x')}`);
    await logIn();
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'), slow);
  });

  it('the links between sign-in pages keep ?next=', async () => {
    mockApi({ 'GET /api/auth/config': config });
    renderApp('/login?next=%2Fchat');
    expect(await screen.findByRole('link', { name: 'Create an account' })).toHaveAttribute(
      'href',
      '/signup?next=%2Fchat',
    );
    expect(screen.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute(
      'href',
      '/forgot-password?next=%2Fchat',
    );
  });

  it('a signed-in visitor on /login?next= goes there at once', async () => {
    localStorage.setItem('token', 'tok');
    mockApi({ 'GET /api/user/profile': ok(makeProfile()) });
    const { router } = renderApp('/login?next=%2Fprofile');
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'), slow);
  });
});

describe('an invitation opened signed out survives signing up, confirming and onboarding', { timeout: 30_000 }, () => {
  const KEY = 'k3y-0f-f0rty-thr33-characters-base64url-abc';
  const joinPage = `/join-organization?key=${KEY}`;
  const keep = () =>
    localStorage.setItem(
      'pendingJoin',
      JSON.stringify({ key: KEY, storedAt: Date.now(), expiresAt: Date.now() + 7 * 24 * 3600 * 1000 }),
    );

  it('a later login, even from a plain /login, lands on the invitation', async () => {
    keep();
    mockApi({
      'GET /api/auth/config': config,
      'POST /api/auth/login': ok({ token: 'tok', user: makeProfile() }),
      'GET /api/user/profile': ok(makeProfile()),
    });
    const { router } = renderApp('/login');
    await logIn();
    await waitFor(() => expect(router.state.location.pathname).toBe('/join-organization'), slow);
    expect(router.state.location.search).toBe(`?key=${KEY}`);
    expect(await screen.findByRole('button', { name: 'Join organization' })).toBeInTheDocument();
  });

  it('a first login goes through onboarding, whose end leads to the invitation', async () => {
    const user = userEvent.setup();
    keep();
    mockApi({
      'GET /api/auth/config': config,
      'POST /api/auth/login': ok({ token: 'tok', user: makeProfile({ loginCount: 1 }) }),
      'GET /api/user/profile': ok(makeProfile({ loginCount: 1 })),
      'GET /api/user/setting': ok({}),
    });
    const { router } = renderApp('/login');
    await logIn();
    await waitFor(() => expect(router.state.location.pathname).toBe('/on-boarding/1'), slow);
    await user.click(await screen.findByRole('button', { name: 'Skip' }));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe(joinPage), slow);
  });

  it('without one, onboarding ends at home as before', async () => {
    const user = userEvent.setup();
    localStorage.setItem('token', 'tok');
    mockApi({
      'GET /api/user/profile': ok(makeProfile({ loginCount: 1 })),
      'GET /api/user/setting': ok({}),
    });
    const { router } = renderApp('/on-boarding/1');
    await user.click(await screen.findByRole('button', { name: 'Skip' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'), slow);
  });

  it('signing out forgets it', async () => {
    keep();
    localStorage.setItem('token', 'tok');
    mockApi({ 'GET /api/user/profile': ok(makeProfile()), 'POST /api/user/logout': ok(null, 'Signed out.') });
    const { router } = renderApp('/signout');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), slow);
    expect(localStorage.getItem('pendingJoin')).toBeNull();
  });
});
