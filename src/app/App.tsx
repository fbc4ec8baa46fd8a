import type { AppStore } from '../stores/app-store';
import { AppShell } from '../ui/features/shell/app-shell';

export function App({ store }: { store: AppStore }) {
  return <AppShell store={store} />;
}
