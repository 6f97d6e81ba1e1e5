// longname_spin.cc - a C++ workload for record/tool-longnames: lookups in a
// std::map keyed by std::string, built with -fno-inline, so samples land in
// several members of one std::_Rb_tree<...> instantiation whose demangled
// names are about 790 characters long and differ only after the template
// arguments (_M_lower_bound, _S_key, find, ...).
#include <cstdlib>
#include <map>
#include <string>
int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 1000000;
	std::map<std::string, std::string> m;
	for (int i = 0; i < 512; i++)
		m[std::string("key-") + std::to_string(i * 7919 % 1000)] = std::to_string(i);
	unsigned long hits = 0;
	std::string k = "key-";
	for (unsigned long i = 0; i < n; i++) {
		k.resize(4);
		k += std::to_string(i % 1000);
		hits += m.find(k) != m.end();
	}
	return hits == 0;
}
