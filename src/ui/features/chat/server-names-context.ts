import { createContext } from 'react';

/** The display names of the chat's servers by id ("everything" → "Everything"), for tool cards. */
export const ServerNamesContext = createContext<ReadonlyMap<string, string>>(new Map());
