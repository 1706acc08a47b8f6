// @vitest-environment happy-dom
// The picture with a fake bridge and a fake graph: the model's
// tones and grouping, the list, live updates (held → approved), opening a
// session or a conversation, the empty, no-WebGL and history-off states, and
// the line under a click.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { BridgeError } from '../../renderer/bridge/bridge.js';
import { createStores } from '../../renderer/stores/stores.js';
import { createPictureStore } from '../../renderer/stores/picture.js';
import { NoGraphics, type GraphFactory, type GraphView } from '../../renderer/features/picture/graph.js';
import { buildPicture, countsText, type Picture } from '../../renderer/features/picture/model.js';
import { boxOf, groupCircles } from '../../renderer/features/picture/groups.js';
import { nearestSegment } from '../../renderer/features/picture/overlay.js';
import { PictureView } from '../../renderer/features/picture/picture.js';
import type { HistoryEdgesView } from '../../core/protocol/methods.js';
import { agentRow as row } from './rows.js';
import { fakeBridge } from '../fakes/bridge.js';

afterEach(cleanup);

type EdgeRow = HistoryEdgesView['edges'][number];
const edgeRow = (from: string, to: string, outcome: string, count: number, last = 1): EdgeRow => ({
  from: { sessionId: `id-${from}`, name: from, address: `uds:/r/${from}.sock`, team: null },
  to: { sessionId: `id-${to}`, name: to, team: null, address: `uds:/r/${to}.sock` },
  outcome,
  count,
  last,
});

/** A graph that keeps what it was given. */
function fakeGraph(): {
  factory: GraphFactory;
  applied: Picture[];
  patched: string[][];
  events: { onNode(k: string): void; onEdge(k: string): void } | null;
} {
  const out = {
    applied: [] as Picture[],
    patched: [] as string[][],
    events: null as { onNode(k: string): void; onEdge(k: string): void } | null,
    factory: null as unknown as GraphFactory,
  };
  out.factory = async (_el, events) => {
    out.events = events;
    const view: GraphView = {
      apply: (p) => void out.applied.push(p),
      patch: (_p, keys) => void out.patched.push([...keys]),
      setPalette: () => undefined,
      dispose: () => undefined,
    };
    return view;
  };
  return out;
}

async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await act(async () => {
      await new Promise((r) => setTimeout(r, 0));
    });
  }
}

describe('the picture model', () => {
  const picture = () =>
    buildPicture(
      [
        row('api', { team: 'backend' }),
        row('db', { team: 'backend', state: 'busy' }),
        row('far', { machine: 'laptop' }),
      ],
      [
        edgeRow('api', 'db', 'queued', 3),
        edgeRow('api', 'db', 'approved', 1),
        edgeRow('api', 'db', 'dropped', 1),
        edgeRow('db', 'api', 'denied', 2),
        edgeRow('db', 'api', 'held', 1),
        edgeRow('gone', 'db', 'expired', 1),
      ],
    );

  it('groups sessions by machine and team', () => {
    const p = picture();
    expect([...p.nodes.values()].map((n) => [n.label, n.machine, n.team, n.state, n.live])).toEqual([
      ['api [abc123]', 'this machine', 'backend', 'idle', true],
      ['db [abc123]', 'this machine', 'backend', 'busy', true],
      ['far [abc123]', 'laptop', 'no team', 'idle', true],
      ['gone (ended)', 'this machine', 'no team', 'ended', false],
    ]);
  });

  it('counts outcomes in five tones named in History’s words', () => {
    const p = picture();
    const ab = p.edges.get('uds:/r/api.sock>uds:/r/db.sock')!;
    // Queued, unread messages are not "delivered": the picture says what History says.
    expect([ab.tone, ab.count, ab.counts]).toEqual([
      'dropped',
      5,
      { delivered: 1, queued: 3, held: 0, refused: 0, dropped: 1 },
    ]);
    expect(countsText(ab)).toBe('5 messages: 3 queued, 1 approved, 1 dropped');
    expect(countsText(p.edges.get('session:id-gone>uds:/r/db.sock')!)).toBe('1 message: 1 expired');
    expect(p.totals).toEqual({ delivered: 1, queued: 3, held: 1, refused: 3, dropped: 1 });
  });

  it('colours a line by its most pressing outcome', () => {
    const p = picture();
    expect(p.edges.get('uds:/r/db.sock>uds:/r/api.sock')!.tone).toBe('held'); // held beats refused
    expect(p.edges.get('session:id-gone>uds:/r/db.sock')!.tone).toBe('refused'); // expired: it did not get through
  });

  it('outlines each team and frames them all', () => {
    const one = groupCircles(
      [
        { x: 0, y: 0, machine: 'this machine', team: 'a' },
        { x: 10, y: 0, machine: 'this machine', team: 'a' },
        { x: 30, y: 0, machine: 'this machine', team: 'b' },
      ],
      5,
    );
    expect(one.map((c) => [c.kind, c.label, c.x, c.y, c.r])).toEqual([
      ['team', 'a', 5, 0, 10],
      ['team', 'b', 30, 0, 5],
    ]);
    expect(boxOf(one)).toEqual({ x: [-5, 35], y: [-10, 10] });
    expect(boxOf([])).toBe(null);
  });

  it('outlines machines only once there are two', () => {
    const two = groupCircles(
      [
        { x: 0, y: 0, machine: 'here', team: 'a' },
        { x: 40, y: 0, machine: 'laptop', team: 'a' },
      ],
      5,
    );
    expect(two.map((c) => `${c.kind} ${c.label} r=${c.r}`)).toEqual([
      'machine here r=10',
      'team a r=5',
      'machine laptop r=10',
      'team a r=5',
    ]);
  });

  it('finds the line under a click, and none when the click is far from every line', () => {
    const lines = [
      { key: 'a', from: { x: 0, y: 0 }, to: { x: 100, y: 0 }, width: 2 },
      { key: 'b', from: { x: 0, y: 20 }, to: { x: 100, y: 20 }, width: 2 },
    ];
    expect(nearestSegment({ x: 50, y: 3 }, lines)).toBe('a');
    expect(nearestSegment({ x: 50, y: 16 }, lines)).toBe('b');
    expect(nearestSegment({ x: 50, y: 10 }, lines)).toBe(null);
    expect(nearestSegment({ x: 130, y: 0 }, lines)).toBe(null); // past the end of the line
  });
});

describe('Picture view', () => {
  it('shows a useful empty state with no sessions', async () => {
    const f = fakeBridge({
      'sessions.list': { rows: [] },
      'picture.edges': { since: 0, edges: [], truncated: false, cursor: { epoch: 'run', seq: 0 } },
    });
    const stores = createStores(f.bridge);
    const g = fakeGraph();
    render(
      <PictureView
        stores={stores}
        graph={g.factory}
        onOpenSession={() => undefined}
        onOpenConversation={() => undefined}
      />,
    );
    await act(() => stores.sessions.getState().load());
    await settle();
    expect(screen.getByTestId('picture-empty').textContent).toContain('Nothing to draw yet');
  });

  /** The view over api → db (6 queued) and api → yolo (1 held), with a fake graph; `opened` records what it opens. */
  const drawn = async () => {
    const edges: EdgeRow[] = [edgeRow('api', 'db', 'queued', 6), edgeRow('api', 'yolo', 'held', 1)];
    const f = fakeBridge({
      'sessions.list': { rows: [row('api'), row('db'), row('yolo')] },
      'picture.edges': () => ({ since: 0, edges, truncated: false, cursor: { epoch: 'run', seq: 40 } }),
    });
    const stores = createStores(f.bridge);
    const g = fakeGraph();
    const opened: string[] = [];
    render(
      <PictureView
        stores={stores}
        graph={g.factory}
        onOpenSession={(a) => opened.push(`session ${a}`)}
        onOpenConversation={(b) => opened.push(`conversation ${b.join(' ')}`)}
      />,
    );
    await act(() => stores.sessions.getState().load());
    await settle();
    const items = () => screen.getAllByTestId('picture-edge').map((li) => `${li.dataset.tone} ${li.textContent}`);
    const last = () => g.applied[g.applied.length - 1]!;
    return { edges, f, g, opened, items, last };
  };

  it('draws sessions and lines', async () => {
    const { items, last } = await drawn();
    expect(screen.getByTestId('picture-summary').textContent).toBe('3 sessions, 7 messages in the last hour');
    expect(items()).toEqual([
      'held api [abc123] → yolo [abc123]1 message: 1 held',
      'queued api [abc123] → db [abc123]6 messages: 6 queued', // unread: not "delivered" (History says queued)
    ]);
    expect(screen.getByTestId('total-held').textContent).toBe('1');
    expect([last().nodes.size, [...last().edges.values()].map((e) => e.tone)]).toEqual([3, ['queued', 'held']]);
  });

  // The user approves: the hub's move turns that one line delivered, without asking the hub again.
  it('follows a held message to its approval from the hub’s move alone', async () => {
    const { edges, f, g, items, last } = await drawn();
    const fetches = f.calls.length;
    const { from, to } = edges[1]!;
    act(() =>
      f.emit({
        type: 'history.moved',
        move: {
          epoch: 'run',
          seq: 41,
          kind: 'count',
          msgId: 'm1',
          at: 1,
          from,
          to,
          outcome: 'approved',
          previous: 'held',
        },
      }),
    );
    await settle();
    expect(items()[1]).toBe('delivered api [abc123] → yolo [abc123]1 message: 1 approved');
    expect([...last().edges.values()].map((e) => e.tone)).toEqual(['queued', 'delivered']);
    expect(g.patched.at(-1)).toEqual(['uds:/r/api.sock>uds:/r/yolo.sock']); // that edge only
    expect(screen.getByTestId('total-held').textContent).toBe('0');
    expect(f.calls.length).toBe(fetches);
  });

  // A name opens its session; the counts open the conversation; so do the graph's dot and line.
  it('opens sessions and conversations from the list and the graph', async () => {
    const { g, opened } = await drawn();
    fireEvent.click(screen.getAllByRole('button', { name: 'db [abc123]' })[0]!);
    fireEvent.click(screen.getByRole('button', { name: 'Open the conversation of api [abc123] and db [abc123]' }));
    g.events!.onNode('uds:/r/yolo.sock');
    g.events!.onEdge('uds:/r/api.sock>uds:/r/yolo.sock');
    expect(opened).toEqual([
      'session uds:/r/db.sock',
      'conversation id-api id-db',
      'session uds:/r/yolo.sock',
      'conversation id-api id-yolo',
    ]);
  });

  it('asks the hub again for another window', async () => {
    const { f } = await drawn();
    fireEvent.change(screen.getByLabelText('Messages of'), { target: { value: String(24 * 3_600_000) } });
    await settle();
    expect(f.calls.filter(([op]) => op === 'picture.edges').at(-1)![1]).toEqual({ windowMs: 24 * 3_600_000 });
  });

  it('narrows the list to one session’s conversations', async () => {
    await drawn();
    fireEvent.change(screen.getByLabelText('Filter conversations by session'), { target: { value: 'yolo' } });
    expect(screen.getAllByTestId('picture-edge')).toHaveLength(1);
  });

  it('keeps the list when the window cannot draw, and says when history is off', async () => {
    const f = fakeBridge({
      'sessions.list': { rows: [row('api'), row('db')] },
      'picture.edges': new BridgeError('history_off', 'History is off on this hub'),
    });
    const stores = createStores(f.bridge);
    const noGl: GraphFactory = () => Promise.reject(new NoGraphics());
    render(
      <PictureView stores={stores} graph={noGl} onOpenSession={() => undefined} onOpenConversation={() => undefined} />,
    );
    await act(() => stores.sessions.getState().load());
    await settle();
    expect(screen.getByText(/WebGL is off/)).toBeTruthy();
    expect(screen.getByText(/message history is off/)).toBeTruthy();
    expect(screen.getByTestId('picture-summary').textContent).toBe('2 sessions, 0 messages in the last hour');
  });

  it('asks the hub for the picture only while it is shown, and as seldom as it can', async () => {
    vi.useFakeTimers();
    try {
      let pending: Array<() => void> = [];
      let seq = 0;
      const cursor = { epoch: 'run', seq: 0 };
      const f = fakeBridge({
        'picture.edges': () =>
          new Promise((r) => pending.push(() => r({ since: 0, edges: [], truncated: false, cursor }))),
      });
      const store = createPictureStore(f.bridge);
      const count = () => f.calls.filter(([op]) => op === 'picture.edges').length;
      const reset = () => f.emit({ type: 'history.moved', move: { epoch: 'run', seq: ++seq, kind: 'reset' } });
      reset();
      f.emit({
        type: 'activity',
        entry: { at: 0, kind: 'receipt', status: 'held', sender: 'a', receiver: 'b', msgId: 'm', reason: '' },
      });
      f.emit({ type: 'held.changed', count: 1 });
      expect(count(), 'nothing is shown: no query').toBe(0);
      const stop = store.getState().activate();
      expect(count()).toBe(1);
      cursor.seq = seq;
      for (let i = 0; i < 50; i++) reset();
      f.emit({ type: 'held.changed', count: 1 }); // the moves say it all: no query of its own
      expect(count()).toBe(1); // one in flight…
      const answer = async () => {
        const p = pending;
        pending = [];
        p.forEach((r) => r());
        await vi.advanceTimersByTimeAsync(300);
      };
      await answer();
      expect(count(), 'a burst of fifty resets: one more query').toBe(2);
      await answer();
      expect(count()).toBe(2);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(count(), 'once a minute as the window slides').toBe(3);
      await answer();
      stop();
      await vi.advanceTimersByTimeAsync(120_000);
      reset();
      f.emit({ type: 'resync' });
      expect(count(), 'closed: no more queries').toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
