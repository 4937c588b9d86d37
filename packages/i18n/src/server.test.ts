import { describe, expect, it } from 'vitest';
import { translate } from './server.js';

describe('server messages', () => {
  it('take the plural form of `count` where the key has one, in each language', () => {
    const wait = (lng: string, minutes: number) =>
      translate(lng, 'api', 'errors.RATE_LIMITED', { minutes, count: minutes });
    expect(wait('en', 1)).toBe('Too many attempts. Please try again in 1 minute.');
    expect(wait('en', 15)).toBe('Too many attempts. Please try again in 15 minutes.');
    expect(wait('es', 1)).toBe('Demasiados intentos. Vuelve a intentarlo dentro de 1 minuto.');
    expect(wait('es', 15)).toBe('Demasiados intentos. Vuelve a intentarlo dentro de 15 minutos.');
    expect(wait('fr', 1)).toBe('Trop de tentatives. Réessayez dans 1 minute.');
    expect(wait('fr', 15)).toBe('Trop de tentatives. Réessayez dans 15 minutes.');
    // A language Parley does not speak: English's forms.
    expect(wait('de', 1)).toBe('Too many attempts. Please try again in 1 minute.');
  });

  it('take the form of a `context` where the key has one', () => {
    expect(translate('fr', 'api', 'errors.SESSION_REPLACED', { context: 'forced' })).toBe(
      'Vous avez été déconnecté : votre compte a été déconnecté sur tous les appareils.',
    );
    expect(translate('en', 'api', 'errors.SESSION_REPLACED', { context: 'no_such_reason' })).toBe(
      'You have been logged out',
    );
  });

  it('use the key itself when it has no plural forms, or without a count', () => {
    expect(translate('en', 'api', 'errors.NOT_FOUND', { count: 2, what: 'x' })).toBe(
      translate('en', 'api', 'errors.NOT_FOUND', { what: 'x' }),
    );
    expect(translate('en', 'api', 'errors.RATE_LIMITED', { minutes: 3 })).toBe(
      'Too many attempts. Please try again in 3 minutes.',
    );
  });
});
