import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { OptionsApp } from '../../features/options/options-app';
import { PageShell } from '../../ui/page-shell';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <PageShell title="options.title">
      <OptionsApp />
    </PageShell>
  </StrictMode>,
);
