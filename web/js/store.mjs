// IndexedDB key-value store for the app (devices with their tokens and last_seq, offline queues,
// cached exports, reminders). Falls back to memory where IndexedDB is missing.

import { MemoryStore } from './controller.mjs';

export async function openStore(name = 'deskpet') {
  if (!globalThis.indexedDB) return new MemoryStore();
  const db = await new Promise((resolve, reject) => {
    const r = indexedDB.open(name, 1);
    r.onupgradeneeded = () => r.result.createObjectStore('kv');
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  }).catch(() => null);
  if (!db) return new MemoryStore();
  const tx = (mode, fn) => new Promise((resolve, reject) => {
    const t = db.transaction('kv', mode); const s = t.objectStore('kv');
    const req = fn(s);
    t.oncomplete = () => resolve(req && req.result);
    t.onerror = () => reject(t.error);
  });
  return {
    get: (k) => tx('readonly', (s) => s.get(k)),
    set: (k, v) => tx('readwrite', (s) => s.put(v, k)),
    del: (k) => tx('readwrite', (s) => s.delete(k)),
  };
}
