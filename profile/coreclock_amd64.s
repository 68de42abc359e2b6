#include "textflag.h"

// func addChain(n int64) int64
// n trips of four dependent one-cycle additions: 4n core cycles.
TEXT ·addChain(SB), NOSPLIT, $0-16
	MOVQ n+0(FP), CX
	XORQ AX, AX
loop:
	ADDQ $1, AX
	ADDQ $1, AX
	ADDQ $1, AX
	ADDQ $1, AX
	DECQ CX
	JNZ  loop
	MOVQ AX, ret+8(FP)
	RET
