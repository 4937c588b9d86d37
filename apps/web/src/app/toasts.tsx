import { useTranslation } from 'react-i18next';
import { Bounce, ToastContainer, type CloseButtonProps } from 'react-toastify';

/** Spec §9 toast settings: top-right, 5 s, pause on hover, drag 80 %, light theme, no progress bar. */
export function Toasts() {
  const { t } = useTranslation('shell');
  const close = t('toasts.close');
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
      // The library's screen-reader labels are English: the region's and the close button's in the person's language.
      aria-label={t('toasts.region')}
      closeButton={(props: CloseButtonProps) => <Close {...props} label={close} />}
      // Below the header (3.5rem), so a toast never hides the language picker or Sign out.
      style={{ top: 'calc(3.5rem + 0.5rem)' }}
    />
  );
}

/** The library's close button (same classes and icon), with a label in the person's language. */
function Close({ closeToast, theme, label }: CloseButtonProps & { label: string }) {
  return (
    <button
      type="button"
      className={`Toastify__close-button Toastify__close-button--${theme}`}
      aria-label={label}
      onClick={(event) => {
        event.stopPropagation();
        closeToast(true);
      }}
    >
      <svg aria-hidden="true" viewBox="0 0 14 16">
        <path
          fillRule="evenodd"
          d="M7.71 8.23l3.75 3.75-1.48 1.48-3.75-3.75-3.75 3.75L1 11.98l3.75-3.75L1 4.48 2.48 3l3.75 3.75L9.98 3l1.48 1.48-3.75 3.75z"
        />
      </svg>
    </button>
  );
}
