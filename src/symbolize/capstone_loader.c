/*
 * capstone, loaded on the first disassembly (pprof/dynlib.h).
 *
 * Linked, libcapstone.so.4 costs every run 3.25 MB of resident memory
 * before main (the dynamic linker relocates its per-architecture tables),
 * which is 6% of a `top` of a 30 MB profile's peak, and only disasm and
 * weblist use it. So pprof-c is compiled against capstone's headers but
 * not linked with it: this file defines the capstone functions disasm.c
 * calls, and forwards them to the library, opened by the first
 * disassembly (pp_symbolize__capstone_load, which disasm.c calls first so
 * that a missing library is a clear error, not a failed cs_open).
 */
#include <capstone/capstone.h>
#include <stddef.h>

#include "pprof/dynlib.h"
#include "symbolize/internal.h"

/* Every capstone function pprof-c calls: name, return type, parameters.
 * One missing here fails the link. */
#define PP_CAPSTONE_FUNCTIONS(X)                                              \
	X(cs_open, cs_err, (cs_arch arch, cs_mode mode, csh * handle))        \
	X(cs_close, cs_err, (csh * handle))                                   \
	X(cs_option, cs_err, (csh handle, cs_opt_type type, size_t value))    \
	X(cs_malloc, cs_insn *, (csh handle))                                 \
	X(cs_free, void, (cs_insn * insn, size_t count))                      \
	X(cs_disasm_iter, bool,                                               \
	  (csh handle, const uint8_t **code, size_t *size, uint64_t *address, \
	   cs_insn *insn))

enum { PP_CAPSTONE_FUNCTIONS(PP_DYNLIB_INDEX) CAPSTONE_COUNT };
PP_CAPSTONE_FUNCTIONS(PP_DYNLIB_TYPEDEF)

/* Debian 12's libcapstone4 (capstone 4.0). */
static const char *const cs_sonames[] = {"libcapstone.so.4", NULL};
static const char *const cs_names[] = {PP_CAPSTONE_FUNCTIONS(PP_DYNLIB_NAME)
                                               NULL};
/* The process-wide table, filled once. */
static pp_dynlib_fn cs_fns[CAPSTONE_COUNT];
static struct pp_dynlib cs_lib = PP_DYNLIB_INIT(cs_sonames, cs_names, cs_fns);

#define CALL(name) PP_DYNLIB_CALL(cs_fns, name)

const char *pp_symbolize__capstone_load(void)
{
	return pp_dynlib_load(&cs_lib) ? NULL : pp_dynlib_error(&cs_lib);
}

/* ---- the entry points ----------------------------------------------------
 * Each makes sure the library is loaded (after the first call, one atomic
 * load) and without it fails as capstone fails on a bad handle. */

cs_err cs_open(cs_arch arch, cs_mode mode, csh *handle)
{
	if (!pp_dynlib_load(&cs_lib))
		return CS_ERR_MEM;
	return CALL(cs_open)(arch, mode, handle);
}

cs_err cs_close(csh *handle)
{
	if (!pp_dynlib_load(&cs_lib))
		return CS_ERR_HANDLE;
	return CALL(cs_close)(handle);
}

cs_err cs_option(csh handle, cs_opt_type type, size_t value)
{
	if (!pp_dynlib_load(&cs_lib))
		return CS_ERR_HANDLE;
	return CALL(cs_option)(handle, type, value);
}

cs_insn *cs_malloc(csh handle)
{
	if (!pp_dynlib_load(&cs_lib))
		return NULL;
	return CALL(cs_malloc)(handle);
}

void cs_free(cs_insn *insn, size_t count)
{
	if (insn && pp_dynlib_load(&cs_lib))
		CALL(cs_free)(insn, count);
}

bool cs_disasm_iter(csh handle, const uint8_t **code, size_t *size,
                    uint64_t *address, cs_insn *insn)
{
	if (!pp_dynlib_load(&cs_lib))
		return false;
	return CALL(cs_disasm_iter)(handle, code, size, address, insn);
}
