import { useQuery } from '@tanstack/react-query';
import { STREAM_PATHS } from '@parley/contract';
import { apiClient } from '../../../lib/api';

/** What this server offers: the extension it was built with (or none) and its store page. */
export const useExtensionInfo = () =>
  useQuery({ queryKey: ['install', 'extension'], queryFn: () => apiClient.call('extensionInfo'), staleTime: 60_000 });

/** The download itself: a plain link, so the browser saves the file with its own download UI. */
export const EXTENSION_DOWNLOAD_URL = STREAM_PATHS.extensionDownload;
