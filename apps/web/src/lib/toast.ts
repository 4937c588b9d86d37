import type { Id, toast as toaster, ToastContent, ToastOptions } from 'react-toastify';

type Toaster = typeof toaster;

let library: Promise<Toaster> | undefined;

/**
 * The toast library, loaded once. No page needs it to show itself, so the app's shell and the pages it carries (the
 * chat, guards, settings saves) reach it through this module and it loads beside the first page rather than before it
 * (app/root-shell.tsx mounts the container the same way). Calls keep their order: each waits on the same promise.
 */
function loadToasts(): Promise<Toaster> {
  library ??= import('react-toastify').then(
    (module) => module.toast,
    (error: unknown) => {
      // Not loaded (the network dropped): the next toast tries again.
      library = undefined;
      throw error;
    },
  );
  return library;
}

/** Runs `show` with the toast library (at once when loaded, else as soon as it is; never if it cannot load). */
export function withToast(show: (toast: Toaster) => void): void {
  loadToasts().then(show, () => undefined);
}

/** The calls the shell makes, each queued behind the library's loading (a toast before the container waits in it). */
export const toast = {
  success: (content: ToastContent, options?: ToastOptions) => withToast((t) => t.success(content, options)),
  error: (content: ToastContent, options?: ToastOptions) => withToast((t) => t.error(content, options)),
  warning: (content: ToastContent, options?: ToastOptions) => withToast((t) => t.warning(content, options)),
  dismiss: (id?: Id) => withToast((t) => t.dismiss(id)),
};
