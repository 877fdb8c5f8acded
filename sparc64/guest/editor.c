/*
 * editor - the program the shell's child execs before the recording
 * (emacs-gtk in the original report): other libraries than the shell's
 * (libstdc++, libgcc_s) and its own anonymous executable region.
 */
#include <math.h>
#include "guest.h"

int main(void)
{
	volatile double x = 3.0;

	x = cbrt(x);
	anon_exec("editor", 8);
	ready("editor", "synth-fork");
	idle();
}
