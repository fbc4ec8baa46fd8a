import type { AppUpdates } from '../domain/app-shell';
import type { AppStore } from '../stores/app-store';
import { AppShell } from '../ui/features/shell/app-shell';

export function App({ store, updates }: { store: AppStore; updates?: AppUpdates | undefined }) {
  return <AppShell store={store} updates={updates} />;
}
