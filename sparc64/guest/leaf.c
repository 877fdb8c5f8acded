/*
 * leaf - the last image of an exec chain: linked against libc only, so
 * that any map of the image before the exec that perf keeps stands out.
 * Usage: leaf   (it always was exec'd, so its kind is "exec")
 */
#include "guest.h"

int main(void)
{
	ready("leaf", "exec");
	idle();
}
