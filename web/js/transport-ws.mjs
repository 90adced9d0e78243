// The phone protocol over a WebSocket (the device's own `/link`, docs/companion.md): each binary
// message carries bytes of the same length-prefixed stream as TCP; a text message is taken as one
// JSON message and framed here, so either server style reads the same.

import { encodeFrame } from './frame.mjs';

export function defaultLinkUrl(loc = globalThis.location) {
  if (!loc || !/^https?:$/.test(loc.protocol)) return null;
  return (loc.protocol === 'https:' ? 'wss://' : 'ws://') + loc.host + '/link';
}

export class WebSocketTransport {
  constructor(url, WS = globalThis.WebSocket) {
    this.kind = 'websocket'; this.url = url; this.label = url; this.WS = WS;
    this.onbytes = () => {}; this.onclose = () => {};
  }

  open() {
    return new Promise((resolve, reject) => {
      let ws;
      try { ws = new this.WS(this.url); } catch (e) { reject(e); return; }
      this.ws = ws; ws.binaryType = 'arraybuffer';
      let opened = false;
      ws.onopen = () => { opened = true; resolve(); };
      ws.onmessage = (ev) => {
        if (typeof ev.data === 'string') {
          let m; try { m = JSON.parse(ev.data); } catch { return; }
          this.onbytes(encodeFrame(m));
        } else this.onbytes(new Uint8Array(ev.data));
      };
      ws.onerror = () => { if (!opened) reject(new Error(`cannot reach ${this.url}`)); };
      ws.onclose = (ev) => {
        if (!opened) { reject(new Error(`cannot reach ${this.url}`)); return; }
        this.onclose(`closed (${ev.code}${ev.reason ? ' ' + ev.reason : ''})`);
      };
    });
  }

  async send(bytes) {
    if (!this.ws || this.ws.readyState !== 1) throw new Error('not connected');
    this.ws.send(bytes);
  }

  close() { try { this.ws && this.ws.close(1000); } catch { /* already closed */ } }
}
