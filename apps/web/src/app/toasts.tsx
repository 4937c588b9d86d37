import { Bounce, ToastContainer } from 'react-toastify';

/** Spec §9 toast settings: top-right, 5 s, pause on hover, drag 80 %, light theme, no progress bar. */
export function Toasts() {
  return (
    <ToastContainer
      position="top-right"
      autoClose={5000}
      pauseOnHover
      draggable
      draggablePercent={80}
      theme="light"
      hideProgressBar
      newestOnTop
      closeOnClick={false}
      transition={Bounce}
      // Below the header (3.5rem), so a toast never hides the language picker or Sign out.
      style={{ top: 'calc(3.5rem + 0.5rem)' }}
    />
  );
}
