import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserEnv } from '../platform/environment';
import { createAppStore, startApp } from '../stores/app-store';
import { App } from './App';
import { createServices } from './services';
import './styles.css';

const store = createAppStore();
const env = createBrowserEnv();
void startApp(store, (onLost) => createServices(env, onLost));

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App store={store} />
  </StrictMode>,
);
