// IndexedDB for Node: the real idb code runs against fake-indexeddb (installs IDBKeyRange and friends as globals).
import 'fake-indexeddb/auto';
