import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { PanelApp } from '../../app/panel-app';
import { PageShell } from '../../ui/page-shell';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <PageShell title="pages.panel">
      <PanelApp mode="page" />
    </PageShell>
  </StrictMode>,
);
