import { describe, expect, it } from 'vitest';
import { mockApi, ok, makeProfile } from '../../../test/render-app';
import { MissingCredentialError, signInWithGoogleCredential } from './sign-in-calls';

describe('signInWithGoogleCredential', () => {
  it('refuses a missing credential without calling the API', async () => {
    const fetchMock = mockApi({});
    await expect(signInWithGoogleCredential(undefined)).rejects.toBeInstanceOf(MissingCredentialError);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends the credential as the idToken query of social-signin', async () => {
    const fetchMock = mockApi({ 'POST /api/auth/social-signin': ok({ token: 't', user: makeProfile() }) });
    const result = await signInWithGoogleCredential('aaa.bbb.ccc');
    expect(result.token).toBe('t');
    const url = new URL(String(fetchMock.mock.calls[0]?.[0]), 'http://localhost');
    expect(url.searchParams.get('idToken')).toBe('aaa.bbb.ccc');
  });
});
