# The kernel of make deb's packages (the production configuration), booted
# by make check-deb (packaging/check-deb.sh) with an image whose test module
# was built against the linux-headers package: the control plane, an
# in-tree driver under the tracer, the test module's accesses against
# QEMU's record. Not part of make check.
TIER=deb
TESTS="ranges.bats mmiotouch.bats e1000.bats onoff.bats"
TIMEOUT=900
ORACLE=yes
EST=240
