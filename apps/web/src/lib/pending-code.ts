/**
 * A licence code typed on the app-deal page by someone who already has an account: kept for this tab only
 * (sessionStorage, never the address bar), so the profile's redeem form can offer it after they sign in.
 */
const KEY = 'pendingLicenceCode';

export function rememberPendingCode(code: string): void {
  try {
    sessionStorage.setItem(KEY, code);
  } catch {
    // Storage refused (private mode): the person types the code again.
  }
}

/** The remembered code, forgotten as it is read. */
export function takePendingCode(): string | null {
  try {
    const code = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    return code;
  } catch {
    return null;
  }
}
