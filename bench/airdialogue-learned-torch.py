#!/usr/bin/env python3
"""PyTorch peer of dialogym's learned AirDialogue models, for bench/airdialogue-learned-epoch.bench.ts.

Reads the JSON that bench/airdialogue-learned-export.ts writes (the examples prepared by dialogym:
word ids, speakers, contexts, the positions each model predicts, the match and constraint
features of each stretch, the state model's inputs and targets, the sizes, the step and the
epoch's order) and trains one epoch of the same architecture (src/testbeds/airdialogue/learned/
model.ts): customer and agent models, each embeddings + a context layer (the agent's over the
13 fields of each flight, then a GRU over the flights), a dialogue GRU, attention over the
context with the match features projected in, a tanh mix, the H×V output layer and the copy gate
(pointer-generator); the agent's state model (status, flight pointer over keys with the mention
state and the match features, two name pointers). Adam, global-norm clipping, mini-batches of
dialogues, LM losses scaled per dialogue as dialogym's trainer does. Batched the PyTorch way: the
contexts of a mini-batch encoded together, its dialogues through one packed GRU run
(pack_sequence), the readout of all their predicted positions at once; the state model per
dialogue. One thread.

Differences that do not change the work: PyTorch's GRU applies the reset gate after the
recurrent product (r ⊙ (U_n·h + b_n)) where dialogym's GRU multiplies U_n by r ⊙ h; the
initialisation is PyTorch's. The features come precomputed (dialogym computes them in its epoch).

Prints "one epoch over N dialogues: cpu S s, wall W s, train loss L". Input with `examplesFile`
and `offsets` (bench/airdialogue-learned-export.ts `exportPreparedLines`): the examples are read
from that JSON-lines file a batch at a time. With AIR_TORCH_WINDOW=k, every k updates a line
"window S1-S2 dialogues D lm L gradmax G clipped C" (LM nats per token of those updates, their
largest gradient norm before clipping, how many were clipped).
"""
import os
import json
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)
torch.manual_seed(1)

data = json.load(open(sys.argv[1]))
V, D, H, NF, NFIELDS, MF, G = data['V'], data['D'], data['H'], data['NF'], data['fields'], data['MF'], data['G']
NS = 5  # statuses


def t(xs, dtype=torch.long):
    return torch.tensor(xs, dtype=dtype)


class Model(nn.Module):
    def __init__(self, agent):
        super().__init__()
        self.agent = agent
        self.emb = nn.Embedding(V, D)
        self.field = nn.Embedding(NFIELDS, D)
        nn.init.normal_(self.emb.weight, 0, 0.1)
        nn.init.normal_(self.field.weight, 0, 0.1)
        self.ctx = nn.Linear(NF * D if agent else D, H)
        self.init_layer = nn.Linear(H + D if agent else H, H)
        self.gru = nn.GRU(D, H)
        self.query = nn.Linear(H, H, bias=False)
        self.mix = nn.Linear(2 * H, H)
        self.out = nn.Linear(H, V)
        self.copy = nn.Linear(H, 1)
        if agent:
            self.flights = nn.GRU(H, H)
            self.match = nn.Linear(MF, H, bias=False)
            self.glob = nn.Linear(G, NS + 1)
            self.status_out = nn.Linear(H, NS)
            self.status_emb = nn.Embedding(NS, H)
            self.flight_query = nn.Linear(H, H, bias=False)
            self.flight_key = nn.Linear(2 * H + 1 + MF, H)
            self.none = nn.Linear(H, 1)
            self.name_key = nn.ModuleList([nn.Linear(H + D, H) for _ in range(2)])
            self.name_query = nn.ModuleList([nn.Linear(H, H, bias=False) for _ in range(2)])

    def encode(self, exs):
        """Memories (B × n × H) and first states (B × H) of a batch of examples."""
        if not self.agent:
            x = self.emb(torch.stack([ex['intentIds'] for ex in exs])) + self.field(torch.stack([ex['intentFields'] for ex in exs]))
            mem = torch.tanh(self.ctx(x))
            return mem, torch.tanh(self.init_layer(mem.mean(1)))
        x = self.emb(torch.stack([ex['flightIds'] for ex in exs])) + self.field(torch.stack([ex['flightFields'] for ex in exs]))
        mem = torch.tanh(self.ctx(x.view(len(exs), -1, NF * D)))
        _, last = self.flights(mem.transpose(0, 1))
        res = self.emb(torch.stack([ex['resId'] for ex in exs])) + self.field(torch.stack([ex['resField'] for ex in exs]))
        return mem, torch.tanh(self.init_layer(torch.cat([last[0], res], 1)))

    def loss(self, exs, lm_scales):
        """Σ_b lm_scales[b]·lm_b (+ the state losses) over a batch: one packed GRU run, the readout of all its positions at once."""
        side = 'agent' if self.agent else 'customer'
        mem, h0 = self.encode(exs)
        packed = nn.utils.rnn.pack_sequence([self.emb(ex['ids']) for ex in exs], enforce_sorted=False)
        out, _ = self.gru(packed, h0.unsqueeze(0))
        hs, _ = nn.utils.rnn.pad_packed_sequence(out)  # Lmax × B × H
        pos = torch.cat([ex[side]['pos'] for ex in exs])
        col = torch.cat([torch.full((ex[side]['pos'].shape[0],), b, dtype=torch.long) for b, ex in enumerate(exs)])
        h = hs[pos, col]
        if self.agent:
            mems = torch.cat([mem[b].unsqueeze(0) + self.match(ex['agent']['feats']) for b, ex in enumerate(exs)])  # S × n × H
            offs, k = [], 0
            for ex in exs:
                offs.append(k)
                k += ex['agent']['feats'].shape[0]
            M = mems[torch.cat([ex['agent']['seg'] + o for ex, o in zip(exs, offs)])]
        else:
            M = mem[col]
        q = self.query(h)
        alpha = F.softmax(torch.bmm(M, q.unsqueeze(2)).squeeze(2), 1)
        context = torch.bmm(alpha.unsqueeze(1), M).squeeze(1)
        o = torch.tanh(self.mix(torch.cat([h, context], 1)))
        logits = self.out(o)
        g = torch.sigmoid(self.copy(o)).squeeze(1)
        y = torch.cat([ex['ids'][ex[side]['pos'] + 1] for ex in exs])
        pv = F.softmax(logits, 1).gather(1, y.unsqueeze(1)).squeeze(1)
        slots = torch.stack([ex['flightSlots' if self.agent else 'slots'] for ex in exs])[col]
        ay = (alpha * (slots == y.unsqueeze(1))).sum(1)
        lm_rows = -torch.log((g * pv + (1 - g) * ay).clamp_min(1e-30))
        scale = torch.tensor(lm_scales)[col]
        total = (lm_rows * scale).sum()
        if self.agent:
            for b, ex in enumerate(exs):
                total = total + self.state_loss(ex, hs[:, b], mem[b])
        return total, lm_rows.sum().item(), pos.shape[0]

    def state_loss(self, ex, hs, mem):
        hT = hs[ex['endPos']]
        gout = self.glob(ex['global']) if ex['global'] is not None else torch.zeros(NS + 1)
        loss = torch.zeros(())
        if ex['status'] >= 0:
            logits = self.status_out(hT) + gout[:NS]
            loss = loss + F.cross_entropy(logits.unsqueeze(0), t([ex['status']]))
        if ex['flight'] >= 0:
            q_in = hT + self.status_emb(t(ex['status'])) if ex['status'] >= 0 else hT
            q = self.flight_query(q_in)
            mention = ex['mention']
            said = (mention >= 0).float().unsqueeze(1)
            keys_in = torch.cat([mem, hs[mention.clamp_min(0)] * said, said, ex['match']], 1)
            keys = self.flight_key(keys_in)
            scores = torch.cat([keys @ q, self.none(hT) + gout[NS]])
            loss = loss - F.log_softmax(scores, 0)[ex['flight']]
        for k, targets in enumerate([ex['first'], ex['last']]):
            if len(targets) == 0:
                continue
            npos = ex['namePositions']
            keys = self.name_key[k](torch.cat([hs[npos], self.emb(ex['ids'][npos])], 1))
            p = F.softmax(keys @ self.name_query[k](hT), 0)
            loss = loss - torch.log(p[t(sorted(set(targets)))].sum().clamp_min(1e-30))
        return loss


def tensors(ex):
    out = dict(ex)
    for k in ['ids', 'intentIds', 'intentFields', 'slots', 'flightSlots', 'namePositions', 'mention']:
        out[k] = t(ex[k])
    n = ex['nFlights']
    out['flightIds'] = t(ex['flightIds']).view(n, NF)
    out['flightFields'] = t(ex['flightFields']).view(n, NF)
    out['resId'] = t(ex['resId'])
    out['resField'] = t(ex['resField'])
    out['match'] = t(ex['match'], torch.float).view(n, MF) if ex['match'] is not None else torch.zeros(n, MF)
    out['global'] = t(ex['global'], torch.float) if ex['global'] is not None else None
    for side in ['customer', 'agent']:
        s = ex[side]
        feats = t(s['feats'], torch.float).view(len(s['feats']), n if side == 'agent' else -1, MF) if side == 'agent' and len(s['feats']) > 0 else None
        out[side] = {'pos': t(s['pos']), 'seg': t(s['seg']), 'feats': feats}
    return out


if 'examplesFile' in data:
    lines = open(data['examplesFile'], 'rb')

    def example(i):
        lines.seek(data['offsets'][i])
        return tensors(json.loads(lines.readline()))
else:
    examples = [tensors(ex) for ex in data['examples']]

    def example(i):
        return examples[i]
WINDOW = int(os.environ.get('AIR_TORCH_WINDOW', '0'))
win = {'lm': 0.0, 'tok': 0, 'n': 0, 'gmax': 0.0, 'clipped': 0, 'from': 1}
customer, agent = Model(False), Model(True)
params = list(customer.parameters()) + list(agent.parameters())
opt = torch.optim.Adam(params, lr=data['lr'])
order = data['order']
B = data['batch']
c0, w0 = time.process_time(), time.time()
step = 0
lm_sum, tok_sum = 0.0, 0
for b in range(0, len(order), B):
    ids = order[b:b + B]
    opt.zero_grad()
    exs = [example(i) for i in ids]
    lc, lmc, tc = customer.loss(exs, [1 / len(ids) / ex['countC'] for ex in exs])
    la, lma, ta = agent.loss(exs, [1 / len(ids) / ex['countA'] for ex in exs])
    total = lc + la
    lm_sum += lmc + lma
    tok_sum += tc + ta
    total.backward()
    norm = float(nn.utils.clip_grad_norm_(params, data['clip']))
    opt.step()
    step += 1
    if WINDOW > 0:
        win['lm'] += lmc + lma
        win['tok'] += tc + ta
        win['n'] += len(ids)
        win['gmax'] = max(win['gmax'], norm)
        win['clipped'] += norm > data['clip']
        if step % WINDOW == 0 or b + B >= len(order):
            print(f"window {win['from']}-{step} dialogues {win['n']} lm {win['lm'] / max(1, win['tok']):.4f} gradmax {win['gmax']:.3g} clipped {win['clipped']}", flush=True)
            win = {'lm': 0.0, 'tok': 0, 'n': 0, 'gmax': 0.0, 'clipped': 0, 'from': step + 1}
cpu, wall = time.process_time() - c0, time.time() - w0
print(f'one epoch over {len(order)} dialogues: cpu {cpu:.1f} s, wall {wall:.1f} s, train loss {lm_sum / max(1, tok_sum):.4f}')
