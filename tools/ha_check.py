#!/usr/bin/env python3
"""Checks deskpet-bridge against a real Home Assistant core (docs/home-assistant.md#tests), run by
tools/ha-test.sh with the Home Assistant venv's Python (it uses that venv's aiohttp for the
WebSocket API). Home Assistant, a mosquitto, the simulator (with --keys) and the paired bridge are
already running; this script:

1. onboards an owner through /api/onboarding and gets an access token;
2. adds the MQTT integration pointed at the test broker through the config-entry flow API;
3. waits until the DeskPet device and its entities are in Home Assistant's registries (WebSocket
   config/device_registry/list, config/entity_registry/list) and the sensors have states;
4. lists the device's triggers (device_automation/trigger/list), adds an automation with the
   key-hold device trigger (REST config API), holds the key on the simulator and waits for the
   automation to run (its last_triggered);
5. presses the focus button through the REST API (button.press) and waits for focus.start in the
   pet's journal and the focus sensor at 25;
6. completes a task on the device (deskpetctl) and waits for the event entity's new event.

Prints `ok …` / `FAIL …` lines like tools/bridge-test.sh; exits 1 on a failure.
"""
import argparse, asyncio, json, sqlite3, subprocess, sys, time, urllib.error, urllib.parse, urllib.request

import aiohttp

failed = False


def ok(what, _detail=''):
    print(f'ok   {what}', flush=True)


def fail(what, detail=''):
    global failed
    failed = True
    print(f'FAIL {what}' + (f': {detail}' if detail else ''), flush=True)


def http(method, url, body=None, token=None, form=False, timeout=30):
    headers = {}
    data = None
    if body is not None:
        if form:
            data = urllib.parse.urlencode(body).encode()
            headers['Content-Type'] = 'application/x-www-form-urlencoded'
        else:
            data = json.dumps(body).encode()
            headers['Content-Type'] = 'application/json'
    if token:
        headers['Authorization'] = f'Bearer {token}'
    req = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            text = r.read().decode()
            return r.status, (json.loads(text) if text else None)
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(errors='replace')


def wait_for(what, fn, seconds):
    end = time.monotonic() + seconds
    last = None
    while time.monotonic() < end:
        try:
            last = fn()
            if last:
                ok(what)
                return last
        except Exception as e:  # a check that cannot run yet is retried until the deadline
            last = e
        time.sleep(0.5)
    fail(what, f'not within {seconds} s (last: {str(last)[:300]})')
    return None


class WS:
    def __init__(self, url, token):
        self.url, self.token, self.next = url.replace('http', 'ws', 1) + '/api/websocket', token, 1

    async def __aenter__(self):
        self.session = aiohttp.ClientSession()
        self.ws = await self.session.ws_connect(self.url)
        assert (await self.ws.receive_json())['type'] == 'auth_required'
        await self.ws.send_json({'type': 'auth', 'access_token': self.token})
        r = await self.ws.receive_json()
        if r['type'] != 'auth_ok':
            raise RuntimeError(f'websocket auth: {r}')
        return self

    async def __aexit__(self, *a):
        await self.ws.close()
        await self.session.close()

    async def call(self, **msg):
        i = self.next
        self.next += 1
        await self.ws.send_json({'id': i, **msg})
        while True:
            r = await self.ws.receive_json()
            if r.get('id') == i:
                if not r.get('success', False):
                    raise RuntimeError(f'{msg["type"]}: {r.get("error")}')
                return r['result']


def ws(url, token, **msg):
    async def go():
        async with WS(url, token) as w:
            return await w.call(**msg)
    return asyncio.run(go())


def main():
    a = argparse.ArgumentParser()
    a.add_argument('--url', required=True)
    a.add_argument('--broker-port', type=int, required=True)
    a.add_argument('--db', required=True)
    a.add_argument('--keys', required=True)
    a.add_argument('--ctl', required=True)
    o = a.parse_args()
    url = o.url.rstrip('/')
    client_id = url + '/'

    # 1. The owner, and a token.
    s, r = http('POST', url + '/api/onboarding/users', {'client_id': client_id, 'name': 'Test', 'username': 'test',
                                                         'password': 'deskpet-test-password', 'language': 'en'})
    if s != 200:
        fail('onboarding', f'{s} {r}')
        return
    s, t = http('POST', url + '/auth/token', {'grant_type': 'authorization_code', 'code': r['auth_code'],
                                              'client_id': client_id}, form=True)
    if s != 200:
        fail('token', f'{s} {t}')
        return
    token = t['access_token']
    ok('Home Assistant onboarded, access token')

    # 2. The MQTT integration, pointed at the test broker.
    s, f = http('POST', url + '/api/config/config_entries/flow', {'handler': 'mqtt', 'show_advanced_options': False}, token)
    steps = 0
    while s == 200 and f.get('type') in ('form', 'menu') and steps < 4:
        steps += 1
        if f['type'] == 'menu':
            body = {'next_step_id': 'broker' if 'broker' in f.get('menu_options', []) else f['menu_options'][0]}
        else:
            body = {'broker': '127.0.0.1', 'port': o.broker_port}
        s, f = http('POST', url + f'/api/config/config_entries/flow/{f["flow_id"]}', body, token)
    if s != 200 or f.get('type') != 'create_entry':
        fail('the MQTT integration set up', f'{s} {f}')
        return
    ok(f'the MQTT integration set up (broker 127.0.0.1:{o.broker_port})')

    # 3. The device and its entities.
    def device():
        return next((d for d in ws(url, token, type='config/device_registry/list')
                     if ['mqtt', 'deskpet_deskpet'] in [list(i) for i in d['identifiers']]), None)
    dev = wait_for('the DeskPet device is in the device registry', device, 60)
    if not dev:
        return
    print(f'     device: {dev["name"]!r}, {dev["manufacturer"]} {dev["model"]}, sw {dev["sw_version"]}')
    if dev['name'].startswith('DeskPet '):
        ok('… named "DeskPet <pet>"')
    else:
        fail('… named "DeskPet <pet>"', dev['name'])

    want = ['sensor.deskpet_deskpet_coins', 'sensor.deskpet_deskpet_level', 'sensor.deskpet_deskpet_last_urge',
            'binary_sensor.deskpet_deskpet_reminder_waiting', 'binary_sensor.deskpet_deskpet_link',
            'switch.deskpet_deskpet_mute', 'switch.deskpet_deskpet_pause', 'number.deskpet_deskpet_brightness',
            'button.deskpet_deskpet_feed', 'button.deskpet_deskpet_focus', 'text.deskpet_deskpet_add_task',
            'event.deskpet_deskpet_task_completed', 'event.deskpet_deskpet_reminder', 'event.deskpet_deskpet_level_up',
            'event.deskpet_deskpet_badge']

    def entities():
        es = [e for e in ws(url, token, type='config/entity_registry/list') if e.get('device_id') == dev['id']]
        return es if set(want) <= {e['entity_id'] for e in es} else None
    es = wait_for('its entities are in the entity registry', entities, 30) or []
    ids = {e['entity_id'] for e in es}
    by_domain = {}
    for e in sorted(ids):
        by_domain.setdefault(e.split('.')[0], []).append(e.split('.', 1)[1].removeprefix('deskpet_deskpet_'))
    for d, names in sorted(by_domain.items()):
        print(f'     {d} ({len(names)}): {", ".join(names)}')
    missing = [w for w in want if w not in ids]
    if missing:
        fail('every kind of entity (sensor, binary sensor, switch, number, button, text, event)', f'missing {missing}')
    else:
        ok(f'every kind of entity (sensor, binary sensor, switch, number, button, text, event): {len(ids)} entities')
    if 'sensor.deskpet_deskpet_next_task' in ids:
        fail('no next-task title sensor by default')
    else:
        ok('no next-task title sensor by default')

    def state(eid):
        s, r = http('GET', url + f'/api/states/{eid}', token=token)
        return r if s == 200 else None

    def coins():
        r = state('sensor.deskpet_deskpet_coins')
        return r if r and r['state'] not in ('unknown', 'unavailable') else None
    c = wait_for('sensor.…coins has a state from the state topic (available)', coins, 30)
    if c:
        print(f'     coins = {c["state"]}; link = {(state("binary_sensor.deskpet_deskpet_link") or {}).get("state")}')
    link = state('binary_sensor.deskpet_deskpet_link')
    (ok if link and link['state'] == 'on' else fail)('binary_sensor.…link is on')

    # 4. A key held on the pet runs an automation with the device trigger.
    triggers = ws(url, token, type='device_automation/trigger/list', device_id=dev['id'])
    mine = [t for t in triggers if t.get('domain') == 'mqtt']
    kinds = {(t['type'], t['subtype']) for t in mine}
    print(f'     device triggers: {len(mine)} ({", ".join(sorted(f"{a}/{b}" for a, b in kinds))})')
    hold_a = next((t for t in mine if t['type'] == 'button_long_press' and t['subtype'] == 'button_1'), None)
    if not hold_a:
        fail('the device offers the key-hold trigger (button_long_press, button_1)', str(mine)[:300])
        return
    ok('the device offers its key triggers (tap, double tap, hold of each key)')
    auto = {'alias': 'DeskPet hold A', 'description': 'tools/ha-test.sh', 'mode': 'queued',
            'trigger': [{k: v for k, v in hold_a.items() if k != 'metadata'}],
            'action': [{'event': 'deskpet_test_hold_a', 'event_data': {}}]}
    s, r = http('POST', url + '/api/config/automation/config/deskpet_hold_a', auto, token)
    if s != 200:
        fail('automation with the device trigger added', f'{s} {r}')
        return

    def automation():
        return next((st for st in (http('GET', url + '/api/states', token=token)[1] or [])
                     if st['entity_id'].startswith('automation.') and st['attributes'].get('id') == 'deskpet_hold_a'), None)
    a0 = wait_for('automation with the device trigger added', automation, 30)
    if not a0:
        return
    before = a0['attributes'].get('last_triggered')
    time.sleep(5)   # Home Assistant subscribes to the trigger's topic a moment after the automation loads
    with open(o.keys, 'w') as k:
        k.write('hold A\n')

    def ran():
        st = state(a0['entity_id'])
        return st if st and st['attributes'].get('last_triggered') not in (None, before) else None
    wait_for('holding key A on the simulator ran the automation (device trigger)', ran, 20)

    # 5. A button pressed in Home Assistant reaches the pet.
    s, r = http('POST', url + '/api/services/button/press', {'entity_id': 'button.deskpet_deskpet_focus'}, token)
    (ok if s == 200 else fail)('button.press on the focus button accepted', '' if s == 200 else f'{s} {r}')

    def journal_focus():
        db = sqlite3.connect(f'file:{o.db}?mode=ro', uri=True)
        try:
            return db.execute("select count(*) from events e join commands c on e.command_id = c.id "
                              "where e.type='focus.started' and c.id like 'phone-%:mq-%'").fetchone()[0] >= 1
        finally:
            db.close()
    wait_for('… reached the pet (its command in the journal)', journal_focus, 20)

    def focus_25():
        st = state('sensor.deskpet_deskpet_focus_minutes_left')
        return st if st and st['state'] == '25' else None
    wait_for('… and the focus sensor says 25 minutes', focus_25, 20)

    # 6. A task completed on the pet shows up as an event.
    ev0 = state('event.deskpet_deskpet_task_completed') or {'state': None}
    subprocess.run([o.ctl, 'task', 'add', 'Secret plan', '--task', 'ha1'], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([o.ctl, 'task', 'done', 'ha1'], check=True, stdout=subprocess.DEVNULL)

    def event():
        st = state('event.deskpet_deskpet_task_completed')
        return st if st and st['state'] not in (ev0['state'], 'unknown', 'unavailable') and \
            st['attributes'].get('event_type') == 'completed' else None
    e = wait_for('a task completed on the pet → event.…task_completed (event_type completed)', event, 20)
    if e:
        print(f'     event: {e["state"]} {json.dumps({k: v for k, v in e["attributes"].items() if k in ("event_type", "task", "seq")})}')
        if 'Secret plan' in json.dumps(e):
            fail('… without its title')
        else:
            ok('… without its title')


if __name__ == '__main__':
    main()
    sys.exit(1 if failed else 0)
