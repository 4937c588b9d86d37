import 'react-toastify/dist/ReactToastify.css';
import './index.css';
import { applyAppearance } from './lib/appearance';
import { getToken } from './lib/session';

// Theme and font size before the first paint, so a dark-theme user never sees a white flash.
applyAppearance();

const root = document.getElementById('root')!;
// A signed-out visitor opening the login page (or /, which goes there) gets that page alone: it is what everyone
// loads first, so it carries none of the app (docs/decisions/021). Everything else starts the whole app.
const signInOnly = !getToken() && (window.location.pathname === '/login' || window.location.pathname === '/');
if (signInOnly) void import('./app/sign-in-app').then((m) => m.startSignInApp(root));
else void import('./app/start-app').then((m) => m.startApp(root));
