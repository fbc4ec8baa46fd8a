import { createContext } from 'react';
import type { ResourceActions } from '../../../stores/resource-attachments';

/** The servers' resources (browse, attach), once start-up is done; the servers manager and the composer use it. */
export const ResourceActionsContext = createContext<ResourceActions | undefined>(undefined);
