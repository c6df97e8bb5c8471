"""What the official DSTC6 Track 1 score.py does, in Python 3 stdlib, for timing only.

Written for bench/cli-startup.bench.ts (not a copy): the official script
(perezjln/dstc6-goal-oriented-end-to-end, scripts/score.py) is Python 2. It parses its options with
optparse (lines 8-27), loads both files with json.load into dialog_id -> list of candidate ids by
rank, dropping ranks above --input-nb-candidate (lines 30-64; the truth file with 1), and counts a
hit at k when the truth's id is among the first k slots (lines 67-74), printing P@1, P@2, P@5.
"""
import json
from optparse import OptionParser


def load(filename, nb):
    out = {}
    with open(filename, 'rb') as fd:
        data = json.load(fd)
    if not isinstance(data, list):
        raise SystemExit('[Error] The result file should be a list ...')
    for item in data:
        if item.get('dialog_id') is None:
            continue
        if item.get('lst_candidate_id') is None:
            raise SystemExit('[Error] No lst_candidate_id key founded ...')
        slots = [None] * nb
        for c in item['lst_candidate_id']:
            if c.get('rank') is None or c.get('candidate_id') is None:
                raise SystemExit('[Error] one candidate has no rank or candidate_id key ...')
            r = int(c['rank'])
            if r <= nb:
                slots[r - 1] = c['candidate_id']
        out[item['dialog_id']] = slots
    return out


def precision(truth, test, k):
    hits = 0.0
    for key in truth.keys():
        if test.get(key) is not None and truth[key][0] in test[key][0:k]:
            hits += 1.0
    return hits / len(truth)


if __name__ == '__main__':
    p = OptionParser()
    p.add_option('--input-result-file-test', dest='test')
    p.add_option('--input-result-file-truth', dest='truth')
    p.add_option('--input-nb-candidate', dest='nb', default=10)
    o, _ = p.parse_args()
    test = load(o.test, int(o.nb))
    truth = load(o.truth, 1)
    for k in (1, 2, 5):
        print('Precision @%d: %s' % (k, precision(truth, test, k)))
