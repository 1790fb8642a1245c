/*
 * libmicrohttpd, opened by the first -http run (mhd_loader.c).
 */
#ifndef PP_WEB_MHD_LOADER_H
#define PP_WEB_MHD_LOADER_H

/* Open libmicrohttpd (the first time): NULL when it is loaded, else why
 * not ("libmicrohttpd.so.12: cannot open shared object file: ..."). */
const char *pp_web_mhd_load(void);

#endif
