/* Fallera's random rollout steps compiled: ``rollouts.Rollouts.random_steps`` written again with the Python C API.

   The same steps in the same order, the same random numbers drawn, the same objects left on the draft: every
   line of the Python loop has its counterpart here (the comments name them), and everything the Python loop
   leaves to the rules (``choices`` and an action's effect, ``draw_cards``, ``check_victory``, ``schedule``,
   ``_another_action``, ``_turn_marks``, ``_start_turn``) is called on the rules as Python calls it.
   ``tests/simulate/test_random_steps.py`` compares both loops with the rules step by step. What is faster is
   only the interpreter's own work: no bytecode, no frame, list operations in C. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <math.h>

#ifndef SOURCE_SHA256
#define SOURCE_SHA256 ""  /* built other than by setup.py: no digest, so ``rollouts`` refuses it */
#endif

static PyObject *s_facts, *s_rng, *s_spaces, *s_log, *s_foods, *s_hands, *s_counters, *s_weights, *s_sellables,
    *s_takes, *s_marks, *s_phase, *s_current, *s_on_counters, *s_again, *s_deck, *s_cemetery, *s_battle,
    *s_pending, *s_actions, *s_turn, *s_turn_phase, *s_defend, *s_placed, *s_trigger, *s_draw, *s_choices,
    *s_draw_cards, *s_check_victory, *s_schedule, *s_another_action, *s_turn_marks, *s_start_turn, *s_sell,
    *s_verbs, *s_empty, *s_end_action, *s_next_turn, *s_almoina, *s_random, *s_nothing;
static PyObject *one, *sorted_fn, *sum_fn;
static Py_ssize_t off_actions, off_again, off_battle, off_cemetery, off_counters, off_current, off_deck, off_foods, off_hands, off_log, off_marks, off_on_counters, off_pending, off_phase, off_rng, off_sellables, off_spaces, off_takes, off_turn, off_weights;
static struct { Py_ssize_t *offset; PyObject **name; } slots[] = {
    {&off_actions, &s_actions},
    {&off_again, &s_again},
    {&off_battle, &s_battle},
    {&off_cemetery, &s_cemetery},
    {&off_counters, &s_counters},
    {&off_current, &s_current},
    {&off_deck, &s_deck},
    {&off_foods, &s_foods},
    {&off_hands, &s_hands},
    {&off_log, &s_log},
    {&off_marks, &s_marks},
    {&off_on_counters, &s_on_counters},
    {&off_pending, &s_pending},
    {&off_phase, &s_phase},
    {&off_rng, &s_rng},
    {&off_sellables, &s_sellables},
    {&off_spaces, &s_spaces},
    {&off_takes, &s_takes},
    {&off_turn, &s_turn},
    {&off_weights, &s_weights},
};

/* A draft's fields are slots: read and written at their offsets in the object, as the slot descriptors
   themselves do, found once for the type of draft played (``Draft``, or a subclass with the same slots). */
static PyTypeObject *slotted;

static int find_slots(PyTypeObject *type) {
    if (type == slotted) return 0;
    for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++) {
        PyObject *d = _PyType_Lookup(type, *slots[i].name);
        if (d == NULL || Py_TYPE(d) != &PyMemberDescr_Type
            || ((PyMemberDescrObject *)d)->d_member->type != T_OBJECT_EX) {
            PyErr_Format(PyExc_TypeError, "a draft's %U is not a slot", *slots[i].name);
            return -1;
        }
        *slots[i].offset = ((PyMemberDescrObject *)d)->d_member->offset;
    }
    slotted = type;
    return 0;
}

#define SLOT(obj, off) (*(PyObject **)((char *)(obj) + (off)))

/* ``draft.field``, a new reference */
static PyObject *dget(PyObject *draft, Py_ssize_t off) {
    PyObject *v = SLOT(draft, off);
    if (v == NULL) { PyErr_SetString(PyExc_AttributeError, "a draft's field is not set"); return NULL; }
    Py_INCREF(v);
    return v;
}

/* ``draft.field = value`` */
static int dset(PyObject *draft, Py_ssize_t off, PyObject *value) {
    PyObject *old = SLOT(draft, off);
    Py_INCREF(value);
    SLOT(draft, off) = value;
    Py_XDECREF(old);
    return 0;
}

static int dset_steal(PyObject *draft, Py_ssize_t off, PyObject *value) {
    if (value == NULL) return -1;
    dset(draft, off, value);
    Py_DECREF(value);
    return 0;
}

/* ``draft.field += delta`` for an int field */
static int dadd(PyObject *draft, Py_ssize_t off, long delta) {
    PyObject *v = dget(draft, off);
    if (v == NULL) return -1;
    PyObject *d = PyLong_FromLong(delta);
    if (d == NULL) { Py_DECREF(v); return -1; }
    PyObject *r = PyNumber_Add(v, d);
    Py_DECREF(v); Py_DECREF(d);
    return dset_steal(draft, off, r);
}

/* ``getattr(draft, name)``, a new reference */
#define GET(obj, name) PyObject_GetAttr((obj), (name))

/* ``seq[i] += value`` on a list (``value`` borrowed) */
static int list_add(PyObject *list, Py_ssize_t i, PyObject *value, int subtract) {
    PyObject *old = PyList_GetItem(list, i);
    if (old == NULL) return -1;
    PyObject *r = subtract ? PyNumber_Subtract(old, value) : PyNumber_Add(old, value);
    if (r == NULL) return -1;
    return PyList_SetItem(list, i, r);  /* steals r */
}

/* ``list.remove(x)`` */
static int list_remove(PyObject *list, PyObject *x) {
    Py_ssize_t n = PyList_GET_SIZE(list);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyList_GET_ITEM(list, i);
        int eq = item == x ? 1 : PyObject_RichCompareBool(item, x, Py_EQ);
        if (eq < 0) return -1;
        if (eq) return PyList_SetSlice(list, i, i + 1, NULL);
    }
    PyErr_SetString(PyExc_ValueError, "list.remove(x): x not in list");
    return -1;
}

/* ``bisect.insort(list, x)`` (insort_right) */
static int insort(PyObject *list, PyObject *x) {
    Py_ssize_t lo = 0, hi = PyList_GET_SIZE(list);
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        int lt = PyObject_RichCompareBool(x, PyList_GET_ITEM(list, mid), Py_LT);
        if (lt < 0) return -1;
        if (lt) hi = mid; else lo = mid + 1;
    }
    return PyList_Insert(list, lo, x);
}

/* The instances each of the prepared frozensets holds, as one byte per instance of the deck: looked up by
   number instead of hashed (a set of anything but instance numbers is looked up as a set). Kept for the
   prepared tuple last played (held, so that it is that very tuple). */
typedef struct { PyObject *set; unsigned char *marked; Py_ssize_t size; } Marks;
static PyObject *marked_for;
static Marks marks[4];

static int mark(Marks *m, PyObject *set, Py_ssize_t size) {
    m->set = set; m->size = size;
    PyMem_Free(m->marked);
    m->marked = PyMem_Calloc(size > 0 ? size : 1, 1);
    if (m->marked == NULL) { PyErr_NoMemory(); return -1; }
    Py_ssize_t pos = 0; PyObject *key; Py_hash_t hash;
    while (_PySet_NextEntry(set, &pos, &key, &hash)) {
        Py_ssize_t i = PyLong_CheckExact(key) ? PyLong_AsSsize_t(key) : -1;
        if (i == -1 && PyErr_Occurred()) PyErr_Clear();
        if (i < 0 || i >= size) { PyMem_Free(m->marked); m->marked = NULL; return 0; }  /* not instance numbers */
        m->marked[i] = 1;
    }
    return 0;
}

static int prepare_marks(PyObject *kept, PyObject **sets, Py_ssize_t size) {
    if (kept == marked_for) return 0;
    Py_CLEAR(marked_for);
    for (int i = 0; i < 4; i++) {
        if (!PyAnySet_Check(sets[i])) { PyErr_SetString(PyExc_TypeError, "prepared: frozensets"); return -1; }
        if (mark(&marks[i], sets[i], size) < 0) return -1;
    }
    Py_INCREF(kept);
    marked_for = kept;
    return 0;
}

/* ``set.isdisjoint(items)`` for one of the prepared sets and a list: 1, 0, or -1 on error */
static int disjoint(Marks *m, PyObject *items) {
    Py_ssize_t n = PyList_GET_SIZE(items);
    if (PySet_GET_SIZE(m->set) == 0) return 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *instance = PyList_GET_ITEM(items, i);
        int in;
        if (m->marked != NULL && PyLong_CheckExact(instance)) {
            Py_ssize_t k = PyLong_AsSsize_t(instance);
            if (k == -1 && PyErr_Occurred()) return -1;
            in = k >= 0 && k < m->size && m->marked[k];
        } else {
            in = PySet_Contains(m->set, instance);
        }
        if (in) return in < 0 ? -1 : 0;
    }
    return 1;
}

/* ``seq[index]`` (a new reference): a tuple read by instance number in C */
static PyObject *item(PyObject *seq, PyObject *index) {
    if (PyTuple_CheckExact(seq) && PyLong_CheckExact(index)) {
        Py_ssize_t i = PyLong_AsSsize_t(index);
        if (i >= 0 && i < PyTuple_GET_SIZE(seq)) {
            PyObject *v = PyTuple_GET_ITEM(seq, i);
            Py_INCREF(v);
            return v;
        }
        if (i == -1 && PyErr_Occurred()) PyErr_Clear();
    }
    return PyObject_GetItem(seq, index);
}

/* ``[*filter(flags.__getitem__, items)]``: the items whose flag is true (flags a tuple indexed by instance) */
static PyObject *flagged(PyObject *flags, PyObject *items) {
    PyObject *out = PyList_New(0);
    if (out == NULL) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(items);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *instance = PyList_GET_ITEM(items, i);
        PyObject *flag = item(flags, instance);
        if (flag == NULL) { Py_DECREF(out); return NULL; }
        int t = PyObject_IsTrue(flag);
        Py_DECREF(flag);
        if (t < 0 || (t && PyList_Append(out, instance) < 0)) { Py_DECREF(out); return NULL; }
    }
    return out;
}

/* ``sorted(items, key=rank_of)``, a new list */
static PyObject *ranked(PyObject *items, PyObject *rank_of) {
    PyObject *args = PyTuple_Pack(1, items);
    if (args == NULL) return NULL;
    PyObject *kw = Py_BuildValue("{sO}", "key", rank_of);
    if (kw == NULL) { Py_DECREF(args); return NULL; }
    PyObject *r = PyObject_Call(sorted_fn, args, kw);
    Py_DECREF(args); Py_DECREF(kw);
    return r;
}

/* ``max(ints) >= limit`` for a non-empty list of ints */
static int reaches(PyObject *ints, long limit) {
    Py_ssize_t n = PyList_GET_SIZE(ints);
    if (n == 0) { PyErr_SetString(PyExc_ValueError, "max() arg is an empty sequence"); return -1; }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(ints, i));
        if (v == -1 && PyErr_Occurred()) return -1;
        if (v >= limit) return 1;
    }
    return 0;
}

/* ``int(rng.random() * n)`` */
static Py_ssize_t pick(PyObject *random_, Py_ssize_t n) {
    PyObject *r = PyObject_CallNoArgs(random_);
    if (r == NULL) return -1;
    double x = PyFloat_AsDouble(r);
    Py_DECREF(r);
    if (x == -1.0 && PyErr_Occurred()) return -1;
    return (Py_ssize_t)(x * (double)n);
}

/* truth of ``self.method(draft, ...)``, or -1 on error */
static int call_truth(PyObject *result) {
    if (result == NULL) return -1;
    int t = PyObject_IsTrue(result);
    Py_DECREF(result);
    return t;
}

static int call_none(PyObject *result) {
    if (result == NULL) return -1;
    Py_DECREF(result);
    return 0;
}

/* ``if self.check_victory(draft): self.schedule(draft, then)``: 1 when the game is won (and ``then`` scheduled),
   0 when not, -1 on an error */
static int won(PyObject *self, PyObject *draft, PyObject *then) {
    int t = call_truth(PyObject_CallMethodOneArg(self, s_check_victory, draft));
    if (t <= 0) return t;
    return call_none(PyObject_CallMethodObjArgs(self, s_schedule, draft, then, NULL)) < 0 ? -1 : 1;
}

/* ``effects[type(action)](self, draft, action)`` */
static int play_action(PyObject *effects, PyObject *self, PyObject *draft, PyObject *action) {
    PyObject *effect = PyDict_GetItemWithError(effects, (PyObject *)Py_TYPE(action));
    if (effect == NULL) {
        if (!PyErr_Occurred()) PyErr_SetObject(PyExc_KeyError, (PyObject *)Py_TYPE(action));
        return -1;
    }
    return call_none(PyObject_CallFunctionObjArgs(effect, self, draft, action, NULL));
}

static Py_ssize_t as_index(PyObject *o) { return PyLong_AsSsize_t(o); }

/* random_steps(rules, draft, steps, rng, prepared): see ``Rollouts.random_steps``; ``prepared`` is its
   ``_prepared`` tuple. */
static PyObject *random_steps(PyObject *module, PyObject *args) {
    PyObject *self, *draft, *rng, *kept;
    Py_ssize_t steps;
    if (!PyArg_ParseTuple(args, "OOnOO!", &self, &draft, &steps, &rng, &PyTuple_Type, &kept)) return NULL;
    if (PyTuple_GET_SIZE(kept) != 30) { PyErr_SetString(PyExc_ValueError, "prepared: 30 items"); return NULL; }
#define K(i) PyTuple_GET_ITEM(kept, i)
    PyObject *facts = K(0);
    int plain = PyObject_IsTrue(K(2));
    PyObject *playable = K(3), *battle = K(4);
    int all_battle = PyObject_IsTrue(K(5)), in_number_order = PyObject_IsTrue(K(6));
    PyObject *rank_of = K(7), *attack_points = K(9), *defence_points = K(10), *more = K(11),
             *turn_start = K(12), *rivals = K(13), *allowed_by = K(14), *start_draw = K(15);
    int more_actions = PyObject_IsTrue(K(16)), turn_starts = PyObject_IsTrue(K(17)),
        simple_start = PyObject_IsTrue(K(18));
    PyObject *effects = K(19);
    int discord = PyObject_IsTrue(K(20));
    PyObject *treasures = K(21), *weight = K(22), *sellable = K(23), *defs = K(25), *unsorted = K(26),
             *loose = K(27), *granting = K(28), *starters = K(29);
#undef K
    if (plain < 0 || all_battle < 0 || in_number_order < 0 || more_actions < 0 || turn_starts < 0
        || simple_start < 0 || discord < 0) return NULL;
    if (!PyDict_Check(effects)) { PyErr_SetString(PyExc_TypeError, "effects: a dict"); return NULL; }

    PyObject *random_ = NULL, *log = NULL, *hands = NULL, *counters = NULL, *weights = NULL, *sellables = NULL,
             *o = NULL, *weapons = NULL, *counter = NULL, *action = NULL, *legal = NULL;
    if (find_slots(Py_TYPE(draft)) < 0) return NULL;
    PyObject *sets[4] = {unsorted, loose, granting, starters};
    Py_ssize_t deck_size = PyObject_Length(battle);
    if (deck_size < 0 || prepare_marks(kept, sets, deck_size) < 0) return NULL;
    random_ = GET(rng, s_random);
    if (random_ == NULL) goto error;
    if (dset(draft, off_rng, rng) < 0) goto error;
    o = dget(draft, off_spaces); if (o == NULL) goto error;
    int no_spaces = !PyObject_IsTrue(o); Py_CLEAR(o);
    int fast = plain && no_spaces;
    log = dget(draft, off_log); if (log == NULL) goto error;
    o = dget(draft, off_foods); if (o == NULL) goto error;
    long limit = PyObject_IsTrue(o) ? 4 : 5; Py_CLEAR(o);
    hands = dget(draft, off_hands); counters = dget(draft, off_counters);
    weights = dget(draft, off_weights); sellables = dget(draft, off_sellables);
    if (!hands || !counters || !weights || !sellables) goto error;
    if (!PyList_Check(hands) || !PyList_Check(counters) || !PyList_Check(weights) || !PyList_Check(sellables)) {
        PyErr_SetString(PyExc_TypeError, "a draft's hands, counters and tallies are lists");
        goto error;
    }

    for (Py_ssize_t step = 0; step < steps; step++) {
        int ended = 0;
        int t;
        if (fast) {
            o = dget(draft, off_takes); if (o == NULL) goto error;
            int no_takes = o == Py_None; Py_CLEAR(o);
            o = dget(draft, off_marks); if (o == NULL) goto error;
            int no_marks = !PyObject_IsTrue(o); Py_CLEAR(o);
            if (no_takes && no_marks) {
                PyObject *phase = dget(draft, off_phase); if (phase == NULL) goto error;
                int is_turn = PyUnicode_Compare(phase, s_turn_phase) == 0;
                int is_defend = !is_turn && PyUnicode_Compare(phase, s_defend) == 0;
                Py_DECREF(phase);
                if (PyErr_Occurred()) goto error;
                if (is_turn) {
                    o = dget(draft, off_current); if (o == NULL) goto error;
                    Py_ssize_t me = as_index(o); Py_CLEAR(o);
                    if (me == -1 && PyErr_Occurred()) goto error;
                    PyObject *hand = PyList_GetItem(hands, me); if (hand == NULL) goto error;
                    int special = 0;  /* ``any(map(playable.__getitem__, weapons))`` */
                    if (playable != Py_None) {
                        Py_ssize_t n = PyList_GET_SIZE(hand);
                        for (Py_ssize_t i = 0; i < n && !special; i++) {
                            PyObject *f = item(playable, PyList_GET_ITEM(hand, i));
                            if (f == NULL) goto error;
                            special = PyObject_IsTrue(f); Py_DECREF(f);
                            if (special < 0) goto error;
                        }
                    }
                    if (!special) {
                        Py_INCREF(hand); weapons = hand;
                        if (!all_battle) {
                            if ((t = disjoint(&marks[1], weapons)) < 0) goto error;
                            if (!t) { Py_SETREF(weapons, flagged(battle, hand)); if (weapons == NULL) goto error; }
                        }
                        PyObject *own = PyList_GetItem(counters, me); if (own == NULL) goto error;
                        o = dget(draft, off_on_counters); if (o == NULL) goto error;
                        Py_ssize_t on_counters = as_index(o); Py_CLEAR(o);
                        if (on_counters == -1 && PyErr_Occurred()) goto error;
                        Py_ssize_t nweapons = PyList_GET_SIZE(weapons);
                        Py_ssize_t battles = (on_counters - PyList_GET_SIZE(own)) * nweapons;
                        PyObject *my_sales = PyList_GetItem(sellables, me); if (my_sales == NULL) goto error;
                        Py_ssize_t sales = as_index(my_sales);
                        if (sales == -1 && PyErr_Occurred()) goto error;
                        Py_ssize_t index = pick(random_, 1 + battles + sales);
                        if (index == -1 && PyErr_Occurred()) goto error;
                        o = dget(draft, off_again); if (o == NULL) goto error;
                        int again = o != Py_None; Py_CLEAR(o);
                        int unusual = again;
                        if (!unusual && !index) {
                            PyObject *deck = dget(draft, off_deck); if (deck == NULL) goto error;
                            Py_ssize_t size = PyObject_Length(deck); Py_DECREF(deck);
                            if (size < 0) goto error;
                            unusual = !size || (discord && size == 1);
                        }
                        if (unusual) {  /* an almoina's unusual draw */
                            if (index) {
                                legal = PyObject_CallMethodOneArg(self, s_choices, draft); if (legal == NULL) goto error;
                                action = PySequence_GetItem(legal, index); Py_CLEAR(legal);
                            } else {
                                PyObject *almoina = GET(facts, s_almoina); if (almoina == NULL) goto error;
                                action = PySequence_GetItem(almoina, me); Py_DECREF(almoina);
                            }
                            if (action == NULL) goto error;
                            if (play_action(effects, self, draft, action) < 0) goto error;
                            Py_CLEAR(action); Py_CLEAR(weapons);
                            continue;
                        }
                        if (index > battles) {  /* a sale (``_sold``, no window, no use) */
                            PyObject *mine = flagged(sellable, own); if (mine == NULL) goto error;
                            PyObject *listed = ranked(mine, rank_of); Py_DECREF(mine);
                            if (listed == NULL) goto error;
                            PyObject *sold = PyList_GetItem(listed, index - battles - 1);
                            if (sold == NULL) { Py_DECREF(listed); goto error; }
                            Py_INCREF(sold); Py_DECREF(listed);
                            PyObject *w = NULL, *cemetery = NULL, *def = NULL, *count = NULL;
                            int failed = list_remove(own, sold) < 0
                                || (w = item(weight, sold)) == NULL || list_add(weights, me, w, 1) < 0
                                || list_add(sellables, me, one, 1) < 0 || dadd(draft, off_on_counters, -1) < 0
                                || (cemetery = dget(draft, off_cemetery)) == NULL || PyList_Append(cemetery, sold) < 0
                                || (def = item(defs, sold)) == NULL || (count = GET(def, s_sell)) == NULL;
                            Py_XDECREF(w); Py_XDECREF(cemetery); Py_XDECREF(def); Py_DECREF(sold);
                            if (failed) { Py_XDECREF(count); goto error; }
                            PyObject *who = PyLong_FromSsize_t(me);
                            t = who == NULL ? -1 : call_truth(PyObject_CallMethodObjArgs(self, s_draw_cards, draft, who, count, NULL));
                            Py_XDECREF(who); Py_DECREF(count);
                            if (t < 0) goto error;
                            Py_CLEAR(weapons);
                            if (t) {
                                if (call_none(PyObject_CallMethodObjArgs(self, s_schedule, draft, s_end_action, NULL)) < 0) goto error;
                                continue;
                            }
                            ended = 1;
                        } else if (index) {  /* a battle called */
                            Py_ssize_t loot = (index - 1) / nweapons, weapon = (index - 1) % nweapons;
                            PyObject *mine = PySequence_GetItem(rivals, me); if (mine == NULL) goto error;
                            PyObject *target = NULL;
                            Py_ssize_t nr = PyTuple_Check(mine) ? PyTuple_GET_SIZE(mine) : -1;
                            if (nr < 0) { Py_DECREF(mine); PyErr_SetString(PyExc_TypeError, "rivals: tuples"); goto error; }
                            PyObject *row = NULL;
                            for (Py_ssize_t r = 0; r < nr; r++) {
                                target = PyTuple_GET_ITEM(mine, r);
                                Py_ssize_t who = as_index(target);
                                if (who == -1 && PyErr_Occurred()) { Py_DECREF(mine); goto error; }
                                row = PyList_GetItem(counters, who);
                                if (row == NULL) { Py_DECREF(mine); goto error; }
                                if (loot < PyList_GET_SIZE(row)) break;
                                loot -= PyList_GET_SIZE(row);
                            }
                            Py_XINCREF(target); Py_DECREF(mine);
                            if (target == NULL) { PyErr_SetString(PyExc_ValueError, "no rival"); goto error; }
                            Py_INCREF(row); counter = row;
                            if (!in_number_order) {
                                if ((t = disjoint(&marks[0], counter)) < 0) { Py_DECREF(target); goto error; }
                                if (!t) { Py_SETREF(counter, ranked(counter, rank_of)); if (!counter) { Py_DECREF(target); goto error; } }
                                if ((t = disjoint(&marks[0], weapons)) < 0) { Py_DECREF(target); goto error; }
                                if (!t) { Py_SETREF(weapons, ranked(weapons, rank_of)); if (!weapons) { Py_DECREF(target); goto error; } }
                            }
                            PyObject *arm = PyList_GetItem(weapons, weapon);
                            PyObject *treasure = arm == NULL ? NULL : PyList_GetItem(counter, loot);
                            if (treasure == NULL) { Py_DECREF(target); goto error; }
                            Py_INCREF(arm);
                            PyObject *called = NULL, *who = PyLong_FromSsize_t(me);
                            int failed = who == NULL || list_remove(hand, arm) < 0
                                || dset(draft, off_phase, s_defend) < 0
                                || (called = PyTuple_Pack(4, who, target, treasure, arm)) == NULL
                                || dset(draft, off_battle, called) < 0;
                            Py_XDECREF(who); Py_XDECREF(called); Py_DECREF(arm); Py_DECREF(target);
                            Py_CLEAR(counter); Py_CLEAR(weapons);
                            if (failed) goto error;
                            continue;
                        } else {  /* the almoina: ``draw_cards`` of one card, ``receive`` in line */
                            PyObject *deck = dget(draft, off_deck); if (deck == NULL) goto error;
                            if (!PyList_Check(deck) || PyList_GET_SIZE(deck) == 0) {
                                Py_DECREF(deck); PyErr_SetString(PyExc_IndexError, "pop from empty list"); goto error;
                            }
                            PyObject *drawn = PyList_GET_ITEM(deck, 0); Py_INCREF(drawn);
                            t = PyList_SetSlice(deck, 0, 1, NULL); Py_DECREF(deck);
                            if (t < 0) { Py_DECREF(drawn); goto error; }
                            PyObject *f = item(treasures, drawn);
                            t = f == NULL ? -1 : PyObject_IsTrue(f); Py_XDECREF(f);
                            if (t < 0) { Py_DECREF(drawn); goto error; }
                            Py_CLEAR(weapons);
                            if (t) {
                                PyObject *w = NULL, *s = NULL, *entry = NULL;
                                int failed = insort(own, drawn) < 0 || (entry = PyTuple_Pack(2, s_placed, drawn)) == NULL
                                    || PyList_Append(log, entry) < 0
                                    || (w = item(weight, drawn)) == NULL || list_add(weights, me, w, 0) < 0
                                    || (s = item(sellable, drawn)) == NULL || list_add(sellables, me, s, 0) < 0
                                    || dadd(draft, off_on_counters, 1) < 0;
                                Py_XDECREF(w); Py_XDECREF(s); Py_XDECREF(entry); Py_DECREF(drawn);
                                if (failed) goto error;
                                long mine = PyLong_AsLong(PyList_GET_ITEM(weights, me));
                                if (mine == -1 && PyErr_Occurred()) goto error;
                                if (mine >= limit) {
                                    if ((t = won(self, draft, s_end_action)) < 0) goto error;
                                    if (t) continue;
                                }
                            } else {
                                t = insort(hand, drawn); Py_DECREF(drawn);
                                if (t < 0) goto error;
                            }
                            ended = 1;
                        }
                    }
                } else if (is_defend) {
                    PyObject *fight = dget(draft, off_battle); if (fight == NULL) goto error;
                    if (!PyTuple_Check(fight) || PyTuple_GET_SIZE(fight) != 4) {
                        Py_DECREF(fight); PyErr_SetString(PyExc_ValueError, "a battle of four"); goto error;
                    }
                    PyObject *attacker = PyTuple_GET_ITEM(fight, 0), *target = PyTuple_GET_ITEM(fight, 1),
                             *treasure = PyTuple_GET_ITEM(fight, 2), *attack = PyTuple_GET_ITEM(fight, 3);
                    Py_ssize_t ti = as_index(target), ai = as_index(attacker);
                    if ((ti == -1 || ai == -1) && PyErr_Occurred()) { Py_DECREF(fight); goto error; }
                    PyObject *hand = PyList_GetItem(hands, ti); if (hand == NULL) { Py_DECREF(fight); goto error; }
                    Py_INCREF(hand); weapons = hand;
                    if (!all_battle) {
                        if ((t = disjoint(&marks[1], hand)) < 0) { Py_DECREF(fight); goto error; }
                        if (!t) { Py_SETREF(weapons, flagged(battle, hand)); if (!weapons) { Py_DECREF(fight); goto error; } }
                    }
                    Py_ssize_t nweapons = PyList_GET_SIZE(weapons);
                    Py_ssize_t index = pick(random_, nweapons + 1);
                    if (index == -1 && PyErr_Occurred()) { Py_DECREF(fight); goto error; }
                    o = dget(draft, off_pending); if (o == NULL) { Py_DECREF(fight); goto error; }
                    t = PyObject_IsTrue(o); Py_CLEAR(o);
                    if (t < 0 || (t && dset(draft, off_pending, s_empty) < 0)) { Py_DECREF(fight); goto error; }
                    int steals;
                    PyObject *cemetery = dget(draft, off_cemetery); if (cemetery == NULL) { Py_DECREF(fight); goto error; }
                    if (index < nweapons) {
                        if (!in_number_order) {
                            if ((t = disjoint(&marks[0], weapons)) < 0) { Py_DECREF(fight); Py_DECREF(cemetery); goto error; }
                            if (!t) { Py_SETREF(weapons, ranked(weapons, rank_of)); if (!weapons) { Py_DECREF(fight); Py_DECREF(cemetery); goto error; } }
                        }
                        PyObject *defence = PyList_GET_ITEM(weapons, index); Py_INCREF(defence);
                        PyObject *a = NULL, *d = NULL;
                        int failed = list_remove(hand, defence) < 0 || (a = item(attack_points, attack)) == NULL
                            || (d = item(defence_points, defence)) == NULL
                            || (steals = PyObject_RichCompareBool(a, d, Py_GT)) < 0
                            || PyList_Append(cemetery, attack) < 0 || PyList_Append(cemetery, defence) < 0;
                        Py_XDECREF(a); Py_XDECREF(d); Py_DECREF(defence);
                        if (failed) { Py_DECREF(fight); Py_DECREF(cemetery); goto error; }
                    } else {
                        steals = 1;
                        if (PyList_Append(cemetery, attack) < 0) { Py_DECREF(fight); Py_DECREF(cemetery); goto error; }
                    }
                    Py_DECREF(cemetery); Py_CLEAR(weapons);
                    Py_INCREF(treasure);
                    Py_DECREF(fight);  /* ``draft.battle`` is replaced below: keep what is still read */
                    if (dset(draft, off_battle, Py_None) < 0 || dset(draft, off_phase, s_turn_phase) < 0) {
                        Py_DECREF(treasure); goto error;
                    }
                    if (steals) {  /* ``_unplace`` from the target (if it still holds it), ``receive`` on the attacker */
                        PyObject *lost = PyList_GetItem(counters, ti), *gained = PyList_GetItem(counters, ai);
                        PyObject *w = NULL, *s = NULL, *entry = NULL;
                        int held = lost == NULL || gained == NULL ? -1 : PySequence_Contains(lost, treasure);
                        int failed = held < 0 || (w = item(weight, treasure)) == NULL
                            || (s = item(sellable, treasure)) == NULL;
                        if (!failed && held)
                            failed = list_remove(lost, treasure) < 0 || list_add(weights, ti, w, 1) < 0
                                || list_add(sellables, ti, s, 1) < 0 || dadd(draft, off_on_counters, -1) < 0;
                        if (!failed)
                            failed = insort(gained, treasure) < 0 || (entry = PyTuple_Pack(2, s_placed, treasure)) == NULL
                                || PyList_Append(log, entry) < 0 || list_add(weights, ai, w, 0) < 0
                                || list_add(sellables, ai, s, 0) < 0 || dadd(draft, off_on_counters, 1) < 0;
                        Py_XDECREF(w); Py_XDECREF(s); Py_XDECREF(entry); Py_DECREF(treasure);
                        if (failed) goto error;
                        if ((t = reaches(weights, limit)) < 0) goto error;
                        if (t) {
                            if ((t = won(self, draft, s_end_action)) < 0) goto error;
                            if (t) continue;
                        }
                    } else {
                        Py_DECREF(treasure);
                    }
                    ended = 1;
                }
            }
        }
        if (!ended) {  /* through the rules: ``choices`` and the effect */
            legal = PyObject_CallMethodOneArg(self, s_choices, draft); if (legal == NULL) goto error;
            Py_ssize_t count = PyObject_Length(legal);
            if (count < 0) goto error;
            if (!count) break;
            Py_ssize_t index = pick(random_, count);
            if (index == -1 && PyErr_Occurred()) goto error;
            action = PySequence_GetItem(legal, index); Py_CLEAR(legal);
            if (action == NULL || play_action(effects, self, draft, action) < 0) goto error;
            Py_CLEAR(action);
            continue;
        }
        /* ``_end_action`` */
        if ((t = reaches(weights, limit)) < 0) goto error;
        if (t) {
            if ((t = won(self, draft, s_next_turn)) < 0) goto error;
            if (t) continue;
        }
        o = dget(draft, off_current); if (o == NULL) goto error;
        Py_ssize_t current = as_index(o); Py_CLEAR(o);
        if (current == -1 && PyErr_Occurred()) goto error;
        PyObject *actions = dget(draft, off_actions); if (actions == NULL) goto error;
        long done = PyLong_AsLong(actions); Py_DECREF(actions);
        if (done == -1 && PyErr_Occurred()) goto error;
        if (more_actions || done < 0) {  /* ``_another_action``, read from ``Facts.actions_allowed`` */
            PyObject *allowed = one; Py_INCREF(allowed);
            PyObject *own = PyList_GetItem(counters, current); if (own == NULL) { Py_DECREF(allowed); goto error; }
            if ((t = disjoint(&marks[2], own)) < 0) { Py_DECREF(allowed); goto error; }
            if (!t) {
                Py_ssize_t n = PyList_GET_SIZE(own);
                for (Py_ssize_t i = 0; i < n; i++) {
                    PyObject *instance = PyList_GET_ITEM(own, i);
                    PyObject *f = item(more, instance);
                    t = f == NULL ? -1 : PyObject_IsTrue(f); Py_XDECREF(f);
                    if (t < 0) { Py_DECREF(allowed); goto error; }
                    if (!t) continue;
                    PyObject *most = item(allowed_by, instance);
                    if (most == NULL) { Py_DECREF(allowed); goto error; }
                    if (most == Py_None) { Py_DECREF(most); Py_SETREF(allowed, Py_None); Py_INCREF(Py_None); break; }
                    t = PyObject_RichCompareBool(most, allowed, Py_GT);
                    if (t < 0) { Py_DECREF(most); Py_DECREF(allowed); goto error; }
                    if (t) Py_SETREF(allowed, most); else Py_DECREF(most);
                }
            }
            if (allowed == Py_None) {
                Py_DECREF(allowed);
                t = call_truth(PyObject_CallMethodOneArg(self, s_another_action, draft));
            } else {
                PyObject *next = PyLong_FromLong(done + 1);
                t = next == NULL ? -1 : PyObject_RichCompareBool(next, allowed, Py_LT);
                Py_XDECREF(next); Py_DECREF(allowed);
            }
            if (t < 0) goto error;
            if (t) {
                if (dadd(draft, off_actions, 1) < 0) goto error;
                continue;
            }
        }
        current = (current + 1) % PyList_GET_SIZE(hands);  /* ``_next_turn`` */
        if (dset_steal(draft, off_current, PyLong_FromSsize_t(current)) < 0 || dadd(draft, off_turn, 1) < 0
            || dset_steal(draft, off_actions, PyLong_FromLong(0)) < 0) goto error;
        o = dget(draft, off_marks); if (o == NULL) goto error;
        t = PyObject_IsTrue(o); Py_CLEAR(o);
        if (t < 0) goto error;
        if (t && call_none(PyObject_CallMethodOneArg(self, s_turn_marks, draft)) < 0) goto error;
        if (!turn_starts) continue;
        if (!simple_start) {
            if (call_none(PyObject_CallMethodOneArg(self, s_start_turn, draft)) < 0) goto error;
            continue;
        }
        PyObject *own = PyList_GetItem(counters, current); if (own == NULL) goto error;
        if ((t = disjoint(&marks[3], own)) < 0) goto error;
        if (t) continue;
        PyObject *starting = flagged(turn_start, own); if (starting == NULL) goto error;
        PyObject *drawing = Py_None; Py_INCREF(drawing);
        if (PyList_GET_SIZE(starting) == 1) {
            o = dget(draft, off_pending); if (o == NULL) { Py_DECREF(starting); Py_DECREF(drawing); goto error; }
            t = PyObject_IsTrue(o); Py_CLEAR(o);
            if (t < 0) { Py_DECREF(starting); Py_DECREF(drawing); goto error; }
            if (!t) {
                Py_SETREF(drawing, item(start_draw, PyList_GET_ITEM(starting, 0)));
                if (drawing == NULL) { Py_DECREF(starting); goto error; }
            }
        }
        if (drawing == Py_None) {
            Py_DECREF(drawing); Py_DECREF(starting);
            if (call_none(PyObject_CallMethodOneArg(self, s_start_turn, draft)) < 0) goto error;
            continue;
        }
        /* one card acts, drawing (``Facts.start_draw``): ``_after_burn``'s queue step played in line */
        PyObject *instance = PyList_GET_ITEM(starting, 0); Py_INCREF(instance); Py_DECREF(starting);
        PyObject *index = NULL, *count = NULL, *e1 = NULL, *e2 = NULL, *who = NULL;
        int failed = !PyArg_ParseTuple(drawing, "OO", &index, &count)
            || (e1 = PyTuple_Pack(2, s_trigger, instance)) == NULL || PyList_Append(log, e1) < 0
            || (e2 = PyTuple_Pack(2, s_draw, instance)) == NULL || PyList_Append(log, e2) < 0
            || (who = PyLong_FromSsize_t(current)) == NULL;
        Py_XDECREF(e1); Py_XDECREF(e2);
        if (failed) { Py_XDECREF(who); Py_DECREF(instance); Py_DECREF(drawing); goto error; }
        t = call_truth(PyObject_CallMethodObjArgs(self, s_draw_cards, draft, who, count, NULL));
        if (t > 0) {
            PyObject *queued = PyTuple_Pack(6, s_verbs, who, instance, index, s_nothing, one);
            t = queued == NULL ? -1 : call_none(PyObject_CallMethodObjArgs(self, s_schedule, draft, queued, NULL));
            Py_XDECREF(queued);
        }
        Py_DECREF(who); Py_DECREF(instance); Py_DECREF(drawing);
        if (t < 0) goto error;
    }
    Py_DECREF(random_); Py_DECREF(log); Py_DECREF(hands); Py_DECREF(counters); Py_DECREF(weights);
    Py_DECREF(sellables);
    Py_RETURN_NONE;
error:
    Py_XDECREF(random_); Py_XDECREF(log); Py_XDECREF(hands); Py_XDECREF(counters); Py_XDECREF(weights);
    Py_XDECREF(sellables); Py_XDECREF(o); Py_XDECREF(weapons); Py_XDECREF(counter); Py_XDECREF(action);
    Py_XDECREF(legal);
    return NULL;
}

/* shuffle(getrandbits, items): ``heuristics.shuffle`` (``random.Random.shuffle``) of the list ``items``, drawing
   from ``getrandbits`` (a ``random.Random``'s) the same numbers in the same order. */
static PyObject *shuffle(PyObject *module, PyObject *args) {
    PyObject *getrandbits, *items;
    if (!PyArg_ParseTuple(args, "OO!", &getrandbits, &PyList_Type, &items)) return NULL;
    for (Py_ssize_t i = PyList_GET_SIZE(items) - 1; i >= 1; i--) {
        Py_ssize_t n = i + 1, j;
        int k = 0;
        for (Py_ssize_t v = n; v; v >>= 1) k++;  /* ``n.bit_length()`` */
        PyObject *bits = PyLong_FromLong(k);
        if (bits == NULL) return NULL;
        do {
            PyObject *r = PyObject_CallOneArg(getrandbits, bits);
            if (r == NULL) { Py_DECREF(bits); return NULL; }
            j = PyLong_AsSsize_t(r);
            Py_DECREF(r);
            if (j == -1 && PyErr_Occurred()) { Py_DECREF(bits); return NULL; }
        } while (j >= n);
        Py_DECREF(bits);
        if (i >= PyList_GET_SIZE(items)) { PyErr_SetString(PyExc_IndexError, "the list changed"); return NULL; }
        PyObject *a = PyList_GET_ITEM(items, i);
        PyList_SET_ITEM(items, i, PyList_GET_ITEM(items, j));
        PyList_SET_ITEM(items, j, a);
    }
    Py_RETURN_NONE;
}

/* plain_chances(plain_count, counters, hands): ``heuristics.evaluate`` of a position whose every card's count of
   valid ingredients is its ``Facts.plain_count``: the same scores, the same softmax, each float computed as
   Python computes it (the total summed by Python's own ``sum``). */
static PyObject *plain_chances(PyObject *module, PyObject *args) {
    PyObject *plain, *counters, *hands;
    if (!PyArg_ParseTuple(args, "O!O!O!", &PyTuple_Type, &plain, &PyList_Type, &counters, &PyList_Type, &hands))
        return NULL;
    Py_ssize_t players = PyList_GET_SIZE(hands);
    if (players == 0 || PyList_GET_SIZE(counters) < players) {
        PyErr_SetString(PyExc_ValueError, "a counter and a hand for each player");
        return NULL;
    }
    double scores[64];
    if (players > 64) { PyErr_SetString(PyExc_ValueError, "at most 64 players"); return NULL; }
    for (Py_ssize_t p = 0; p < players; p++) {
        PyObject *counter = PyList_GET_ITEM(counters, p), *hand = PyList_GET_ITEM(hands, p);
        if (!PyList_Check(counter) || !PyList_Check(hand)) { PyErr_SetString(PyExc_TypeError, "lists"); return NULL; }
        long count = 0;
        Py_ssize_t n = PyList_GET_SIZE(counter);
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_ssize_t instance = PyLong_AsSsize_t(PyList_GET_ITEM(counter, i));
            if (instance == -1 && PyErr_Occurred()) return NULL;
            if (instance < 0 || instance >= PyTuple_GET_SIZE(plain)) { PyErr_SetString(PyExc_IndexError, "instance"); return NULL; }
            long value = PyLong_AsLong(PyTuple_GET_ITEM(plain, instance));  /* None: not plain, an error */
            if (value == -1 && PyErr_Occurred()) return NULL;
            count += value;
        }
        long others = (long)n - count;
        double a = 1.2 * (double)count, b = 0.15 * (double)others, c = 0.1 * (double)PyList_GET_SIZE(hand);
        double ab = a + b;
        scores[p] = ab + c;
    }
    double top = scores[0];
    for (Py_ssize_t p = 1; p < players; p++) if (scores[p] > top) top = scores[p];
    PyObject *weights = PyList_New(players);
    if (weights == NULL) return NULL;
    for (Py_ssize_t p = 0; p < players; p++) {
        PyObject *w = PyFloat_FromDouble(exp(scores[p] - top));
        if (w == NULL) { Py_DECREF(weights); return NULL; }
        PyList_SET_ITEM(weights, p, w);
    }
    PyObject *total = PyObject_CallOneArg(sum_fn, weights);
    double t = total == NULL ? -1.0 : PyFloat_AsDouble(total);
    Py_XDECREF(total);
    if (t == -1.0 && PyErr_Occurred()) { Py_DECREF(weights); return NULL; }
    for (Py_ssize_t p = 0; p < players; p++) {
        PyObject *w = PyFloat_FromDouble(PyFloat_AS_DOUBLE(PyList_GET_ITEM(weights, p)) / t);
        if (w == NULL) { Py_DECREF(weights); return NULL; }
        Py_SETREF(PyList_GET_ITEM(weights, p), w);
    }
    return weights;
}

static PyMethodDef methods[] = {
    {"random_steps", random_steps, METH_VARARGS,
     "random_steps(rules, draft, steps, rng, prepared): Rollouts.random_steps compiled (the same steps)."},
    {"shuffle", shuffle, METH_VARARGS,
     "shuffle(getrandbits, items): heuristics.shuffle compiled (the same order, the same numbers drawn)."},
    {"plain_chances", plain_chances, METH_VARARGS,
     "plain_chances(plain_count, counters, hands): heuristics.evaluate where every count is plain, compiled."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_rollouts", "Fallera's random rollout steps and determinizations' shuffle, compiled.",
                                    -1, methods};

PyMODINIT_FUNC PyInit__rollouts(void) {
    struct { PyObject **slot; const char *text; } names[] = {
        {&s_facts, "facts"}, {&s_rng, "rng"}, {&s_spaces, "spaces"}, {&s_log, "log"}, {&s_foods, "foods"},
        {&s_hands, "hands"}, {&s_counters, "counters"}, {&s_weights, "weights"}, {&s_sellables, "sellables"},
        {&s_takes, "takes"}, {&s_marks, "marks"}, {&s_phase, "phase"}, {&s_current, "current"},
        {&s_on_counters, "on_counters"}, {&s_again, "again"}, {&s_deck, "deck"}, {&s_cemetery, "cemetery"},
        {&s_battle, "battle"}, {&s_pending, "pending"}, {&s_actions, "actions"}, {&s_turn, "turn"},
        {&s_turn_phase, "turn"}, {&s_defend, "defend"}, {&s_placed, "placed"}, {&s_trigger, "trigger"},
        {&s_draw, "draw"}, {&s_choices, "choices"}, {&s_draw_cards, "draw_cards"},
        {&s_check_victory, "check_victory"}, {&s_schedule, "schedule"}, {&s_another_action, "_another_action"},
        {&s_turn_marks, "_turn_marks"}, {&s_start_turn, "_start_turn"}, {&s_sell, "sell"}, {&s_verbs, "verbs"},
        {&s_almoina, "almoina"}, {&s_random, "random"}, {&s_nothing, ""},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        *names[i].slot = PyUnicode_InternFromString(names[i].text);
        if (*names[i].slot == NULL) return NULL;
    }
    s_empty = PyTuple_New(0);
    PyObject *end = PyUnicode_InternFromString("end-action"), *next = PyUnicode_InternFromString("next-turn");
    if (s_empty == NULL || end == NULL || next == NULL) return NULL;
    s_end_action = PyTuple_Pack(1, end);
    s_next_turn = PyTuple_Pack(1, next);
    one = PyLong_FromLong(1);
    PyObject *builtins = PyEval_GetBuiltins();
    sorted_fn = builtins == NULL ? NULL : PyDict_GetItemString(builtins, "sorted");
    sum_fn = builtins == NULL ? NULL : PyDict_GetItemString(builtins, "sum");
    if (s_end_action == NULL || s_next_turn == NULL || one == NULL || sorted_fn == NULL || sum_fn == NULL) return NULL;
    Py_INCREF(sorted_fn);
    Py_INCREF(sum_fn);
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddStringConstant(m, "SOURCE_SHA256", SOURCE_SHA256) < 0) { Py_DECREF(m); return NULL; }
    return m;
}
