import { createContext } from 'react';

/** The id of the thread whose messages are shown, for cards that act on their own thread (an app's context). */
export const ThreadIdContext = createContext<string | undefined>(undefined);
