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
