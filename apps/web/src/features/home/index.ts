export { Dashboard, type DashboardLinks } from './components/dashboard';
