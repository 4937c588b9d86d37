import { hash, verify } from '@node-rs/argon2';

/** argon2id (the library's default algorithm) with OWASP's minimum parameters by default. */
export function createPasswordHasher(memoryCost: number) {
  const options = { memoryCost, timeCost: 2, parallelism: 1 };
  let dummy: Promise<string> | undefined;
  return {
    hash: (password: string) => hash(password, options),
    verify: async (hashed: string, password: string) => {
      try {
        return await verify(hashed, password);
      } catch {
        return false;
      }
    },
    /** Spends the same time as a real check, so a missing account is not told apart by timing. */
    verifyDummy: async (password: string) => {
      dummy ??= hash('not-a-real-password', options);
      await verify(await dummy, password).catch(() => false);
      return false;
    },
  };
}
export type PasswordHasher = ReturnType<typeof createPasswordHasher>;
