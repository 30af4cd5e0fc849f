/* Compiled twins of risk_core/rng.py's hottest draws (ENG-01, ENG-02).
 *
 * The same SplitMix64 stream as the pure-Python functions, word for word: the i-th word of a
 * game is mix64(seed + i * GAMMA) modulo 2**64, faces and bounded integers by rejection
 * sampling.  Unsigned 64-bit arithmetic in C is that modulo exactly, on every platform, so the
 * results are the Python functions' results, bit for bit (tests/test_rng_accel.py compares them
 * over random and edge inputs).  The module is optional: without a C compiler the package
 * installs without it and rng.py keeps its pure-Python functions.
 *
 * ACCEL_VERSION changes whenever these functions change, and rng.py's with it, so that a stale
 * build left beside newer Python code is ignored rather than trusted.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define ACCEL_VERSION 1
#define MAX_SIDE 64 /* the most dice d6_throw throws for one side */
#define GAMMA 0x9E3779B97F4A7C15ULL
/* 2**64 - (2**64 % 6), rng.py's _D6_LIMIT: words from here up are rejected (0 - x wraps). */
#define D6_LIMIT ((uint64_t)0 - (UINT64_MAX % 6 + 1) % 6)

static inline uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The face of the stream's next accepted word after ``*x`` (``*x`` and ``*words`` moved past
 * it): a word to reject has odds 4 in 2**64, and the next one is drawn instead. */
static inline long next_face(uint64_t *x, uint64_t *words)
{
    for (;;) {
        *x += GAMMA;
        ++*words;
        uint64_t z = mix64(*x);
        if (z < D6_LIMIT)
            return (long)(z % 6) + 1;
    }
}

/* A Python int modulo 2**64, as the Python code's ``& M64`` reads it (negative ones too). */
static int as_word(PyObject *value, uint64_t *out)
{
    if (!PyLong_Check(value)) {
        PyErr_Format(PyExc_TypeError, "an int is required, not %.100s", Py_TYPE(value)->tp_name);
        return -1;
    }
    *out = (uint64_t)PyLong_AsUnsignedLongLongMask(value);
    return (*out == (uint64_t)-1 && PyErr_Occurred()) ? -1 : 0;
}

/* ``counter + words`` as a Python int, exactly as the Python code computes it. */
static PyObject *advanced(PyObject *counter, uint64_t words)
{
    PyObject *step = PyLong_FromUnsignedLongLong(words);
    if (step == NULL)
        return NULL;
    PyObject *sum = PyNumber_Add(counter, step);
    Py_DECREF(step);
    return sum;
}

/* The tuple (first, second), taking both references; NULL (both released) if either is NULL. */
static PyObject *pair(PyObject *first, PyObject *second)
{
    PyObject *out = (first != NULL && second != NULL) ? PyTuple_New(2) : NULL;
    if (out == NULL) {
        Py_XDECREF(first);
        Py_XDECREF(second);
        return NULL;
    }
    PyTuple_SET_ITEM(out, 0, first);
    PyTuple_SET_ITEM(out, 1, second);
    return out;
}

PyDoc_STRVAR(d6_faces_doc,
"d6_faces(seed, counter, n) -> (faces, counter)\n\n"
"n d6 faces from the seeded stream after position counter, and the position after them\n"
"(rng.d6_faces, compiled).");

static PyObject *d6_faces(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    uint64_t seed, start;
    Py_ssize_t n;
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "d6_faces() takes 3 arguments (%zd given)", nargs);
        return NULL;
    }
    if (as_word(args[0], &seed) < 0 || as_word(args[1], &start) < 0)
        return NULL;
    n = PyLong_AsSsize_t(args[2]);
    if (n == -1 && PyErr_Occurred())
        return NULL;
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "d6_faces() needs a number of faces >= 0");
        return NULL;
    }
    PyObject *faces = PyList_New(n);
    if (faces == NULL)
        return NULL;
    uint64_t x = seed + start * GAMMA, words = 0;
    for (Py_ssize_t i = 0; i < n; i++) /* small ints: PyLong_FromLong cannot fail */
        PyList_SET_ITEM(faces, i, PyLong_FromLong(next_face(&x, &words)));
    return pair(faces, advanced(args[1], words));
}

/* ``faces[0:n]`` as a tuple, highest first (a throw's dice are compared in that order). */
static PyObject *sorted_tuple(long *faces, Py_ssize_t n)
{
    for (Py_ssize_t i = 1; i < n; i++) /* insertion sort: a throw has a handful of dice */
        for (Py_ssize_t j = i; j > 0 && faces[j - 1] < faces[j]; j--) {
            long t = faces[j];
            faces[j] = faces[j - 1];
            faces[j - 1] = t;
        }
    PyObject *out = PyTuple_New(n);
    if (out != NULL)
        for (Py_ssize_t i = 0; i < n; i++)
            PyTuple_SET_ITEM(out, i, PyLong_FromLong(faces[i])); /* small ints: never NULL */
    return out;
}

PyDoc_STRVAR(d6_throw_doc,
"d6_throw(seed, counter, a, d) -> (attack, defence, counter)\n\n"
"A battle's a + d faces from the seeded stream after position counter, the first a and the\n"
"other d each as a tuple highest first, and the position after them (rng.d6_throw, compiled).");

static PyObject *d6_throw(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    uint64_t seed, start;
    Py_ssize_t a, d;
    long faces[2 * MAX_SIDE];
    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError, "d6_throw() takes 4 arguments (%zd given)", nargs);
        return NULL;
    }
    if (as_word(args[0], &seed) < 0 || as_word(args[1], &start) < 0)
        return NULL;
    a = PyLong_AsSsize_t(args[2]);
    if (a == -1 && PyErr_Occurred())
        return NULL;
    d = PyLong_AsSsize_t(args[3]);
    if (d == -1 && PyErr_Occurred())
        return NULL;
    if (a < 0 || d < 0 || a > MAX_SIDE || d > MAX_SIDE) {
        PyErr_Format(PyExc_ValueError, "d6_throw() throws 0 to %d dice a side", MAX_SIDE);
        return NULL;
    }
    uint64_t x = seed + start * GAMMA, words = 0;
    for (Py_ssize_t i = 0; i < a + d; i++)
        faces[i] = next_face(&x, &words);
    PyObject *result = PyTuple_New(3);
    if (result == NULL)
        return NULL;
    PyObject *attack = sorted_tuple(faces, a), *defence = NULL, *counter = NULL;
    if (attack != NULL)
        defence = sorted_tuple(faces + a, d);
    if (defence != NULL)
        counter = advanced(args[1], words);
    PyTuple_SET_ITEM(result, 0, attack); /* NULL items are fine for Py_DECREF of the tuple */
    PyTuple_SET_ITEM(result, 1, defence);
    PyTuple_SET_ITEM(result, 2, counter);
    if (counter == NULL) {
        Py_DECREF(result);
        return NULL;
    }
    return result;
}

PyDoc_STRVAR(below_doc,
"below(seed, counter, bound) -> (value, counter)\n\n"
"A uniform integer in [0, bound) from the seeded stream after position counter, by rejection\n"
"sampling, and the position after it (Rng.below, compiled; bound below 2**64).");

static PyObject *below(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    uint64_t seed, start, bound;
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "below() takes 3 arguments (%zd given)", nargs);
        return NULL;
    }
    if (as_word(args[0], &seed) < 0 || as_word(args[1], &start) < 0)
        return NULL;
    bound = PyLong_AsUnsignedLongLong(args[2]);
    if (bound == (uint64_t)-1 && PyErr_Occurred())
        return NULL;
    if (bound == 0) {
        PyErr_SetString(PyExc_ValueError, "below() needs a positive bound");
        return NULL;
    }
    /* 2**64 - (2**64 % bound), which is 2**64 itself (every word accepted) for a power of 2. */
    uint64_t rem = (UINT64_MAX % bound + 1) % bound;
    uint64_t x = seed + start * GAMMA, words = 0, z;
    do {
        x += GAMMA;
        words++;
        z = mix64(x);
    } while (rem != 0 && z >= 0 - rem);
    PyObject *value = PyLong_FromUnsignedLongLong(z % bound);
    return pair(value, value == NULL ? NULL : advanced(args[1], words));
}

static PyMethodDef methods[] = {
    {"d6_faces", (PyCFunction)(void (*)(void))d6_faces, METH_FASTCALL, d6_faces_doc},
    {"d6_throw", (PyCFunction)(void (*)(void))d6_throw, METH_FASTCALL, d6_throw_doc},
    {"below", (PyCFunction)(void (*)(void))below, METH_FASTCALL, below_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "risk_core._rng_accel",
    .m_doc = "Compiled twins of risk_core.rng's hottest draws.",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__rng_accel(void)
{
    PyObject *module = PyModule_Create(&module_def);
    if (module != NULL && PyModule_AddIntConstant(module, "ACCEL_VERSION", ACCEL_VERSION) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
