/* The module rules.ai._core: each game's engine adds its functions (its `register`). */
#include "core.h"

int durak_register(PyObject *module);
int ganjifa_register(PyObject *module);
int tarot_register(PyObject *module);

static int core_exec(PyObject *module) {
    if (durak_register(module) < 0) return -1;
    if (tarot_register(module) < 0) return -1;
    if (ganjifa_register(module) < 0) return -1;
    return 0;
}

static PyModuleDef_Slot core_slots[] = {
    {Py_mod_exec, core_exec},
    {0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "rules.ai._core",
    .m_doc = "The compiled search core of Cardavia's strong AI level (rules/ai/core/).",
    .m_size = 0,
    .m_slots = core_slots,
};

PyMODINIT_FUNC PyInit__core(void) { return PyModuleDef_Init(&core_module); }
